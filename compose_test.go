package speedmatrix_test

import (
	"context"
	"os"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
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
