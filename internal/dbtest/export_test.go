package dbtest

// NoDatabase exposes noDatabase.
var NoDatabase = noDatabase

// AdminURL returns the admin URL of the server in use.
func AdminURL() string { return env.adminURL }
