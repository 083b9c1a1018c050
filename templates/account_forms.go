package templates

// AuthForm is a sign-up, sign-in or password form: what was typed (never a
// password), the problems, and where to go after signing in.
type AuthForm struct {
	Values map[string]string
	Errors []string
	// Next is the local address to return to after signing in.
	Next string
	// Token is the reset link's secret, carried in a hidden field.
	Token string
	// Mail: the site sends mail (forgotten passwords, confirmations).
	Mail bool
	// Sent: the form was taken and a mail may be on its way.
	Sent bool
	// GitHub: "Sign in with GitHub" is offered.
	GitHub bool
}

// AccountView is /account.
type AccountView struct {
	Handle, Email string
	Admin         bool
	// Notice is a message of the last action ("signed out elsewhere").
	Notice string
	// EmailVerified: the address is confirmed; Mail: the site sends mail,
	// so an unconfirmed one can be confirmed.
	EmailVerified, Mail bool
	// GitHub: GitHub sign-in is offered; GitHubLinked: this account has it.
	GitHub, GitHubLinked bool
}

// TokensView is /account/tokens: the new token, shown once, and the list.
type TokensView struct {
	NewToken string
	// Command is the exact lil-bench command with the new token.
	Command string
	// NewFor says whose runs the new token uploads, for an
	// organisation's token.
	NewFor string
	Tokens []TokenRow
	Notice string
	// Me is the account's handle; Orgs its organisations, each of which
	// a token may be made for.
	Me   string
	Orgs []OrgChoice
}

// TokenRow is one token of the list, named by its shown prefix.
type TokenRow struct {
	Prefix            string
	Created, LastUsed string
	// For is whom the token uploads for: "@handle" or an organisation.
	For     string
	Revoked bool
}

// MyRunsView is /account/runs.
type MyRunsView struct {
	Runs   []MyRun
	Notice string
	// Claimable are the ids of runs this browser uploaded without an
	// account in the last 24 hours (its claim cookies).
	Claimable []string
}

// MyRun is one of the account's runs.
type MyRun struct {
	ID, Title, Uploaded, Edited string
	Hidden                      bool
	// Moderated is a run the moderators hid, for ModerationReason: it
	// has no Show, which only they can undo.
	Moderated        bool
	ModerationReason string
}

// boolAttr is a boolean as a data attribute's value, for tests and styles.
func boolAttr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// EditRunView is /account/runs/{id}/edit: the editable fields of the run
// with their current values, and the problems of a refused edit.
type EditRunView struct {
	ID, Title string
	Form      UploadForm
	Fields    []Field
}

// FieldsNamed returns the upload form's fields of these names, in order,
// so the edit form labels and checks them as the upload form does.
func FieldsNamed(names []string) []Field {
	var out []Field
	for _, n := range names {
		for _, g := range UploadFields {
			for _, f := range g.Fields {
				if f.Name == n {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// AuditView is /admin/audit.
type AuditView struct {
	Entries []AuditRow
	Notice  string
}

// AuditRow is one moderator's act: who, what, on what, when, why.
type AuditRow struct {
	When, Who, What, Target, Why string
}
