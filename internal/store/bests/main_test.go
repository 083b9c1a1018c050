package bests_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

var f = run.F
