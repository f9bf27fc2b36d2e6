package lazywords

import (
	"reflect"
	"testing"
)

// TestSet: the set holds each word split at any white space, once, and
// the same map on every call (compared by identity: callers never write to
// it). An equivalence test: the code moved here
// from claim and recall unchanged.
func TestSet(t *testing.T) {
	s := Set("alpha beta\n\tgamma  beta")
	want := map[string]bool{"alpha": true, "beta": true, "gamma": true}
	if got := s(); !reflect.DeepEqual(got, want) {
		t.Errorf("Set() = %v, want %v", got, want)
	}
	if reflect.ValueOf(s()).UnsafePointer() != reflect.ValueOf(s()).UnsafePointer() {
		t.Error("a second call built a new map")
	}
}
