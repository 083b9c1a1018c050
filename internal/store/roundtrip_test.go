package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

func TestRoundTrip(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	for name, r := range map[string]*run.Run{
		"full": storetest.FullRun(),
		"seed": storetest.SeedRun(),
		// Zero values stay zero, nil slices stay nil, empty ones empty.
		"minimal": {Provenance: run.Measured, Settings: run.Settings{Concurrencies: []int{}}},
	} {
		t.Run(name, func(t *testing.T) {
			want := *r
			id := storetest.MustInsertRun(t, s, r, "key-"+name)
			if r.ID != id || r.Revision != 1 || r.UploadedAt.IsZero() {
				t.Fatalf("InsertRun set ID %q, Revision %d, UploadedAt %v; want %q, 1, non-zero", r.ID, r.Revision, r.UploadedAt, id)
			}
			if !want.UploadedAt.IsZero() && !r.UploadedAt.Equal(want.UploadedAt.Truncate(1000)) {
				t.Errorf("UploadedAt = %v, want the given %v cut to microseconds", r.UploadedAt, want.UploadedAt)
			}
			got, err := s.GetRun(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, r) {
				t.Errorf("GetRun(InsertRun(r)) != r:\n%s", diff(r, got))
			}
			if got.Revision != 1 {
				t.Errorf("Revision = %d, want 1", got.Revision)
			}
		})
	}
}

// TestFixtureCoversEveryField fails when run.Run gains a field the round
// trip fixture does not set: set it in fullRun, and TestRoundTrip then tells
// whether the store keeps it.
func TestFixtureCoversEveryField(t *testing.T) {
	set := map[string]bool{}
	nonZeroPaths(reflect.ValueOf(*storetest.FullRun()), "Run", set)
	for _, path := range leafPaths(reflect.TypeFor[run.Run](), "Run") {
		switch path {
		case "Run.ID", "Run.Revision": // set by InsertRun
			continue
		case "Run.Flags", // a flagged run leaves the bests: TestFlagsRoundTrip
			"Run.EditedAt",                 // set by EditOwnRun, never at upload (TestMyRuns)
			"Run.Org.Slug", "Run.Org.Name": // needs a member's account: TestOrgUploads
			continue
		}
		if !set[path] {
			t.Errorf("fullRun leaves %s zero everywhere", path)
		}
	}
}

func leafPaths(t reflect.Type, path string) []string {
	switch t.Kind() {
	case reflect.Struct:
		if t.PkgPath() == "time" {
			return []string{path}
		}
		var paths []string
		for i := range t.NumField() {
			paths = append(paths, leafPaths(t.Field(i).Type, path+"."+t.Field(i).Name)...)
		}
		return paths
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct {
			return leafPaths(t.Elem(), path+"[]")
		}
	}
	return []string{path}
}

func nonZeroPaths(v reflect.Value, path string, set map[string]bool) {
	switch {
	case v.Kind() == reflect.Struct && v.Type().PkgPath() != "time":
		for i := range v.NumField() {
			nonZeroPaths(v.Field(i), path+"."+v.Type().Field(i).Name, set)
		}
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Struct:
		for i := range v.Len() {
			nonZeroPaths(v.Index(i), path+"[]", set)
		}
	case !v.IsZero():
		set[path] = true
	}
}

// diff shows the lines that differ between the JSON forms of two runs.
func diff(want, got *run.Run) string {
	w, _ := json.MarshalIndent(want, "", " ")
	g, _ := json.MarshalIndent(got, "", " ")
	wl, gl := strings.Split(string(w), "\n"), strings.Split(string(g), "\n")
	var b strings.Builder
	for i := range max(len(wl), len(gl)) {
		var a, c string
		if i < len(wl) {
			a = wl[i]
		}
		if i < len(gl) {
			c = gl[i]
		}
		if a != c {
			fmt.Fprintf(&b, "line %d: want %s\n         got  %s\n", i+1, a, c)
		}
	}
	if b.Len() == 0 {
		return "(JSON forms equal: a nil/empty slice or a json:\"-\" field differs)"
	}
	return b.String()
}
