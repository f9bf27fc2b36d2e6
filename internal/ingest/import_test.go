package ingest

import (
	"context"
	"testing"
	"time"
)

// TestBudget: take waits for bytes to be given back, lets an item larger
// than the whole budget through when nothing else is taken, and gives up
// when the context ends.
func TestBudget(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b := newBudget(ctx, 100)
	if !b.take(60) || !b.take(40) {
		t.Fatal("take within the budget failed")
	}
	got := make(chan bool)
	go func() { got <- b.take(30) }()
	select {
	case <-got:
		t.Fatal("take went past the budget")
	case <-time.After(20 * time.Millisecond):
	}
	b.give(60)
	if !<-got {
		t.Fatal("take after give failed")
	}
	b.give(40)
	b.give(30)
	if !b.take(500) {
		t.Fatal("an item larger than the budget did not go alone")
	}
	go func() { got <- b.take(1) }()
	cancel()
	if <-got {
		t.Error("take succeeded after the context ended")
	}
}
