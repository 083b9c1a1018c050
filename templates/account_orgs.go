package templates

// OrgsView is /account/orgs.
type OrgsView struct {
	Orgs, Invites []OrgRow
	// Values are what the creation form was sent with, Errors its
	// problems.
	Values map[string]string
	Errors []string
	Notice string
}

// OrgRow is one organisation of the account, or one it is invited to.
type OrgRow struct {
	Slug, Name string
	// Role is the account's role, worded; InvitedBy the inviting owner.
	Role, InvitedBy string
}

// OrgManageView is /account/orgs/{slug}, seen by the member Me.
type OrgManageView struct {
	Slug, Name, Me string
	// Owner says Me is an owner: the page offers the owners' actions.
	Owner   bool
	Members []OrgMember
	Invited []string
	Errors  []string
	Notice  string
}
