package store_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// BenchmarkInsertRun inserts seed-sized runs (48 decode cells, 5 prefill
// rows, a 14 KB source) one transaction each.
func BenchmarkInsertRun(b *testing.B) {
	s, _ := dbtest.New(b)
	ctx := context.Background()
	source := make([]byte, 14<<10)
	b.Run("serial", func(b *testing.B) {
		for n := 0; b.Loop(); n++ {
			if _, _, err := s.InsertRun(ctx, storetest.SeedRun(), fmt.Sprintf("serial-%d", n), source); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
	})
	b.Run("parallel", func(b *testing.B) {
		var n atomic.Int64
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				key := fmt.Sprintf("parallel-%d", n.Add(1))
				if _, _, err := s.InsertRun(ctx, storetest.SeedRun(), key, source); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
	})
}

// BenchmarkGetRun loads a seed-sized run.
func BenchmarkGetRun(b *testing.B) {
	s, _ := dbtest.New(b)
	ctx := context.Background()
	id, _, err := s.InsertRun(ctx, storetest.SeedRun(), "get", nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.GetRun(ctx, id); err != nil {
			b.Fatal(err)
		}
	}
}
