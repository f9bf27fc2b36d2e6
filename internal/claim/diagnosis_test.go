package claim

import (
	"slices"
	"testing"
)

func TestDiagnoses(t *testing.T) {
	for _, c := range []struct {
		text, cause string
		revised     bool
	}{
		{"The problem is the thumbnail cache being rebuilt on every request, so pages stall.", "the thumbnail cache being rebuilt on every request", false},
		{"Now I see it. The real problem is DNS resolution in the sidecar.", "dns resolution in the sidecar", true},
		{"**Root cause**: the cron job runs twice per hour.", "the cron job runs twice per hour", true},
		{"The actual issue has been identified: a stale lockfile in the worker image.", "a stale lockfile in the worker image", true},
		{"The underlying cause turned out to be clock skew between the two hosts.", "clock skew between the two hosts", true},
		{"Unbounded retries in the uploader are the real culprit? No: the uploader's unbounded retry loop is the real bottleneck.", "the uploader's unbounded retry loop", true},
	} {
		ds := Diagnoses(c.text)
		if len(ds) == 0 || ds[len(ds)-1].Cause != c.cause || ds[len(ds)-1].Revised != c.revised {
			t.Errorf("Diagnoses(%q) = %+v; want cause %q, revised %v", c.text, ds, c.cause, c.revised)
		}
	}
	for _, text := range []string{
		"No problem, I'll rerun it.",
		"This is the real bottleneck.",
		"There is an issue with the build.",
		"The problems are listed below.",
	} {
		if ds := Diagnoses(text); len(ds) != 0 {
			t.Errorf("Diagnoses(%q) = %+v; want none", text, ds)
		}
	}
}

func TestRevises(t *testing.T) {
	first := Diagnoses("The problem is the thumbnail cache being rebuilt on every request.")
	same := Diagnoses("The real problem is that the thumbnail cache gets rebuilt on each request.")
	other := Diagnoses("The real problem is DNS resolution in the sidecar.")
	plain := Diagnoses("The problem is DNS resolution in the sidecar.")
	if len(first) != 1 || len(same) != 1 || len(other) != 1 || len(plain) != 1 {
		t.Fatalf("diagnoses: %v %v %v %v", first, same, other, plain)
	}
	if !Revises(first[0], other[0]) {
		t.Errorf("another cause named as the real one does not revise the first")
	}
	if Revises(first[0], same[0]) {
		t.Errorf("the same cause restated revises it: %v", same[0].Words)
	}
	if Revises(first[0], plain[0]) {
		t.Errorf("another cause not said to be the real one revises the first")
	}
	if !slices.Equal(other[0].Words, []string{"dns", "resolution", "sidecar"}) {
		t.Errorf("words %v", other[0].Words)
	}
}
