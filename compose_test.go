package speedmatrix_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

// TestComposeFile loads docker-compose.yml with compose-go, the loader
// docker compose v2 itself uses (no Docker engine runs on the test
// machines), and checks the wiring a deployment depends on.
func TestComposeFile(t *testing.T) {
	opts, err := cli.NewProjectOptions([]string{"docker-compose.yml"}, cli.WithName("speedmatrix"), cli.WithWorkingDirectory("."))
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatalf("docker-compose.yml does not load: %v", err)
	}
	app, err := p.GetService("app")
	if err != nil {
		t.Fatal(err)
	}
	if app.Build == nil || app.Build.Dockerfile != "Dockerfile" {
		t.Errorf("app is not built from the Dockerfile: %+v", app.Build)
	}
	if _, err := os.Stat("Dockerfile"); err != nil {
		t.Errorf("Dockerfile: %v", err)
	}
	url := app.Environment["DATABASE_URL"]
	if url == nil || *url != "postgres://speedmatrix:speedmatrix@db:5432/speedmatrix?sslmode=disable" {
		t.Errorf("DATABASE_URL = %v, want the db service", url)
	}
	if dep, ok := app.DependsOn["db"]; !ok || dep.Condition != "service_healthy" {
		t.Errorf("app does not wait for a healthy db: %+v", app.DependsOn)
	}
	db, err := p.GetService("db")
	if err != nil || db.HealthCheck == nil || len(db.HealthCheck.Test) == 0 {
		t.Errorf("db service without a health check: %v", err)
	}
	if len(app.Ports) != 1 || app.Ports[0].Target != 8080 {
		t.Errorf("app ports = %+v, want 8080", app.Ports)
	}
}

// TestComposeScaleProfile: the scale profile runs two instances of the
// app on the one database behind nginx, whose configuration names both,
// and each instance trusts the proxy's X-Forwarded-For with half the
// upload limits.
func TestComposeScaleProfile(t *testing.T) {
	opts, err := cli.NewProjectOptions([]string{"docker-compose.yml"}, cli.WithName("speedmatrix"),
		cli.WithWorkingDirectory("."), cli.WithProfiles([]string{"scale"}))
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatalf("docker-compose.yml does not load with the scale profile: %v", err)
	}
	for _, name := range []string{"app-a", "app-b"} {
		app, err := p.GetService(name)
		if err != nil {
			t.Fatal(err)
		}
		env := app.Environment
		if u := env["DATABASE_URL"]; u == nil || !strings.Contains(*u, "@db:5432/") {
			t.Errorf("%s DATABASE_URL = %v, want the db service", name, u)
		}
		if u := env["DATABASE_READ_URL"]; u == nil || !strings.Contains(*u, "@db-replica:5432/speedmatrix") {
			t.Errorf("%s DATABASE_READ_URL = %v, want the db-replica service", name, u)
		}
		if tp := env["TRUSTED_PROXIES"]; tp == nil || *tp == "" {
			t.Errorf("%s trusts no proxy", name)
		}
		if l := env["UPLOADS_PER_HOUR_ADDRESS"]; l == nil || *l != "15" {
			t.Errorf("%s upload limit = %v, want half of 30", name, l)
		}
		if len(app.Ports) != 0 {
			t.Errorf("%s publishes %+v; only the proxy should", name, app.Ports)
		}
	}
	checkReplicaService(t, p)
	proxy, err := p.GetService("proxy")
	if err != nil {
		t.Fatal(err)
	}
	if len(proxy.Ports) != 1 || proxy.Ports[0].Target != 80 || len(proxy.Volumes) != 1 {
		t.Fatalf("proxy ports %+v, volumes %+v", proxy.Ports, proxy.Volumes)
	}
	conf, err := os.ReadFile("deploy/nginx-scale.conf")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"server app-a:8080", "server app-b:8080", "X-Forwarded-For"} {
		if !strings.Contains(string(conf), want) {
			t.Errorf("deploy/nginx-scale.conf lacks %q", want)
		}
	}
	// Without the profile, only db and app run, as before.
	plain, err := cli.NewProjectOptions([]string{"docker-compose.yml"}, cli.WithName("speedmatrix"), cli.WithWorkingDirectory("."))
	if err != nil {
		t.Fatal(err)
	}
	if pp, err := plain.LoadProject(context.Background()); err != nil || len(pp.Services) != 2 {
		t.Errorf("default project: %v services, %v", len(pp.Services), err)
	}
}

// checkReplicaService: the scale profile's db-replica is PostgreSQL 15
// started by deploy/replica-entrypoint.sh from a pg_basebackup of db, as
// the replication role that deploy/postgres-replication.sh gives db (run
// by the image's initdb hook) with a pg_hba.conf entry for it.
func checkReplicaService(t *testing.T, p *types.Project) {
	t.Helper()
	rep, err := p.GetService("db-replica")
	if err != nil {
		t.Fatal(err)
	}
	db, err := p.GetService("db")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Image != db.Image || rep.Image != "postgres:15" {
		t.Errorf("db-replica image %q, db image %q: want both postgres:15", rep.Image, db.Image)
	}
	if dep, ok := rep.DependsOn["db"]; !ok || dep.Condition != "service_healthy" {
		t.Errorf("db-replica does not wait for a healthy db: %+v", rep.DependsOn)
	}
	if rep.HealthCheck == nil || len(rep.HealthCheck.Test) == 0 {
		t.Error("db-replica has no health check")
	}
	mounts := func(s types.ServiceConfig, source, target string) bool {
		for _, v := range s.Volumes {
			if strings.HasSuffix(v.Source, source) && v.Target == target {
				return true
			}
		}
		return false
	}
	if len(rep.Entrypoint) != 2 || rep.Entrypoint[1] != "/deploy/replica-entrypoint.sh" ||
		!mounts(rep, "deploy/replica-entrypoint.sh", "/deploy/replica-entrypoint.sh") {
		t.Errorf("db-replica entrypoint %v, volumes %+v: want deploy/replica-entrypoint.sh", rep.Entrypoint, rep.Volumes)
	}
	if !mounts(db, "deploy/postgres-replication.sh", "/docker-entrypoint-initdb.d/20-replication.sh") {
		t.Errorf("db does not run deploy/postgres-replication.sh at initdb: %+v", db.Volumes)
	}
	user := func(s types.ServiceConfig) string {
		if u := s.Environment["REPLICATION_USER"]; u != nil {
			return *u
		}
		return ""
	}
	if user(db) == "" || user(db) != user(rep) {
		t.Errorf("REPLICATION_USER: db %q, db-replica %q; want one role on both", user(db), user(rep))
	}
	script := func(path string, wants ...string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s lacks %q", path, w)
			}
		}
	}
	script("deploy/replica-entrypoint.sh", "pg_basebackup", " -R ", "-X stream", "REPLICATION_USER", "hot_standby=on")
	script("deploy/postgres-replication.sh", "WITH REPLICATION LOGIN", "host replication $user", "pg_hba.conf")
}

// TestDockerfileHealthcheck: the image is healthy when the site answers
// /readyz (`speedmatrix health`), not merely when the binary runs.
func TestDockerfileHealthcheck(t *testing.T) {
	b, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var check string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "HEALTHCHECK ") {
			check = line
		}
	}
	if !strings.Contains(check, `CMD ["/usr/local/bin/speedmatrix", "health"]`) {
		t.Errorf("the image's HEALTHCHECK is %q, want it to run speedmatrix health", check)
	}
}
