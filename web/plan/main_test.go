package plan_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }
