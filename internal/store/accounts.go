package store

import "github.com/speedmatrix/speedmatrix/internal/store/accounts"

// The accounts' names (package accounts), where callers of the store have
// always found them. Their methods are Store's through the embedded
// *accounts.Accounts.

// Errors of the account methods, wrapped like ErrNotFound (package
// accounts says when each is returned).
var (
	ErrExists       = accounts.ErrExists
	ErrRevoked      = accounts.ErrRevoked
	ErrNotOwner     = accounts.ErrNotOwner
	ErrAmbiguous    = accounts.ErrAmbiguous
	ErrSlugIsHandle = accounts.ErrSlugIsHandle
	ErrLastSignIn   = accounts.ErrLastSignIn
	ErrModerated    = accounts.ErrModerated
	ErrNotModerated = accounts.ErrNotModerated
	ErrNotMember    = accounts.ErrNotMember
	ErrNotOrgOwner  = accounts.ErrNotOrgOwner
	ErrLastOwner    = accounts.ErrLastOwner
	ErrNotInvited   = accounts.ErrNotInvited
	ErrRetired      = accounts.ErrRetired
	ErrLookalike    = accounts.ErrLookalike
)

// Roles of an organisation's members.
const (
	RoleOwner  = accounts.RoleOwner
	RoleMember = accounts.RoleMember
)

// ClaimWindow is how long after an anonymous upload its browser may claim
// the run for an account, in seconds of the database's clock (24 h).
const ClaimWindow = accounts.ClaimWindow

// OrgRunsLimit bounds the runs an organisation's page lists, newest first.
const OrgRunsLimit = accounts.OrgRunsLimit

// HandleQuarantine is how long a deleted account's handle stays unusable,
// so nobody can pass for its former owner while people still remember it.
const HandleQuarantine = accounts.HandleQuarantine

// The accounts' types (package accounts says what each is).
type (
	Account       = accounts.Account
	NewAccount    = accounts.NewAccount
	Identity      = accounts.Identity
	PendingSignup = accounts.PendingSignup
	TokenInfo     = accounts.TokenInfo
	AuditEntry    = accounts.AuditEntry
	OwnRun        = accounts.OwnRun
	Org           = accounts.Org
	OrgMember     = accounts.OrgMember
	Membership    = accounts.Membership
	NameInUse     = accounts.NameInUse
	Draft         = accounts.Draft
)
