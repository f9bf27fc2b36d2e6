package lazywords

import (
	"reflect"
	"testing"
)

// TestSet: the set holds each word split at any white space, once, and
// the same map on every call. An equivalence test: the code moved here
// from claim and recall unchanged.
func TestSet(t *testing.T) {
	s := Set("alpha beta\n\tgamma  beta")
	want := map[string]bool{"alpha": true, "beta": true, "gamma": true}
	if got := s(); !reflect.DeepEqual(got, want) {
		t.Errorf("Set() = %v, want %v", got, want)
	}
	s()["delta"] = true
	if !s()["delta"] {
		t.Error("a second call built a new map")
	}
}
