package run

// Org is the organisation a run was uploaded for, by one of its members
// (a verified submitter); zero for a run uploaded for its submitter alone.
// Slug names the organisation's page (/orgs/{slug}), Name is what readers
// see.
type Org struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}
