package backup

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/speedmatrix/speedmatrix/internal/store"
)

// accountsV1 is accounts.json of a version-1 backup, the only accounts
// that version kept: orgs, submitters (id, handle, org_id, created_at)
// and tokens, each an object whose keys are its table's columns.
type accountsV1 struct {
	Orgs       []json.RawMessage `json:"orgs"`
	Submitters []json.RawMessage `json:"submitters"`
	Tokens     []json.RawMessage `json:"tokens"`
}

// Columns of accountsV1's rows, as version 1 wrote them.
var (
	orgsV1       = []string{"id", "slug", "name"}
	submittersV1 = []string{"id", "handle", "org_id", "created_at"}
	tokensV1     = []string{"id", "hash", "prefix", "submitter_id", "created_at", "revoked_at", "last_used_at"}
)

// readAccountsV1 reads accounts.json and hands its rows to s as the rows
// of the tables of the same name; the runs follow as in version 2.
func readAccountsV1(ctx context.Context, rd *reader, s sink) error {
	var a accountsV1
	if err := rd.nextJSON("accounts.json", &a); err != nil {
		return err
	}
	tokens, err := tokensFromV1(a.Tokens)
	if err != nil {
		return err
	}
	for _, sec := range []struct {
		name string
		cols []string
		rows []json.RawMessage
	}{{"orgs", orgsV1, a.Orgs}, {"submitters", submittersV1, a.Submitters}, {"tokens", tokensV1, tokens}} {
		t, _ := store.BackupTableNamed(sec.name)
		for i, row := range sec.rows {
			var line bytes.Buffer // version 1 indented its JSON
			if err := json.Compact(&line, row); err != nil {
				return fmt.Errorf("accounts.json %s: %w", sec.name, err)
			}
			if _, err := splitRows("accounts.json "+sec.name, line.Bytes(), sec.cols); err != nil {
				return err
			}
			sec.rows[i] = line.Bytes()
		}
		if err := storeRows(ctx, s, t, sec.cols, sec.rows); err != nil {
			return err
		}
	}
	return nil
}

// tokensFromV1 rewrites each token's hash from Go's base64 to the hex
// form ("\x…") the database reads bytea in, as version 2 writes it.
func tokensFromV1(tokens []json.RawMessage) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(tokens))
	for i, raw := range tokens {
		var row map[string]json.RawMessage
		var hash struct {
			Hash []byte `json:"hash"`
		}
		if err := json.Unmarshal(raw, &row); err != nil {
			return nil, fmt.Errorf("accounts.json token %d: %w", i+1, err)
		}
		if err := json.Unmarshal(raw, &hash); err != nil {
			return nil, fmt.Errorf("accounts.json token %d: %w", i+1, err)
		}
		h, _ := json.Marshal(`\x` + hex.EncodeToString(hash.Hash))
		row["hash"] = h
		b, err := json.Marshal(row)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}
