package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTableIsGenerated: the committed glosses/kor.txt is what the command
// makes of the committed tables and of internal/wordfreq, so a change to
// korean.EnglishKeys or to a table is regenerated with it.
func TestTableIsGenerated(t *testing.T) {
	root := filepath.Join("..", "..")
	want, err := os.ReadFile(filepath.Join(root, "glosses", "kor.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := build(filepath.Join(root, "internal", "wordfreq", "english.txt"), filepath.Join(root, "glosses"), "kor.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("glosses/kor.txt differs from what scripts/glosses-kor makes (%d bytes, want %d): run scripts/gen-glosses.sh", len(got), len(want))
	}
}
