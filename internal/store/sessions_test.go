package store

import (
	"context"
	"testing"
)

// TestRecordedProject: a Windows path is filed under the spelling of it the
// store's sessions hold, differing only in case, the one of the most
// sessions (itself on a tie); a path with none, and a path of another
// system, stay as they are.
func TestRecordedProject(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	for i, p := range []string{`c:\kiln\glaze`, `c:\kiln\glaze`, `C:\kiln\glaze`, `D:\Kiln`, `d:\kiln`, "/home/Kiln", `\\host\Share\kiln`} {
		if err := db.Update(ctx, func(tx *Tx) error {
			return tx.TouchSession(ctx, Session{ID: string(rune('a' + i)), Project: p})
		}); err != nil {
			t.Fatal(err)
		}
	}
	for in, want := range map[string]string{
		`C:\kiln\glaze`:     `c:\kiln\glaze`, // two sessions against one
		`c:\Kiln\Glaze`:     `c:\kiln\glaze`,
		`c:\kiln\glaze`:     `c:\kiln\glaze`,
		`C:\kiln\other`:     `C:\kiln\other`, // none recorded
		`d:\kiln`:           `d:\kiln`,       // a tie: as asked
		`D:\KILN`:           `D:\Kiln`,       // a tie of two others: the first
		"/home/kiln":        "/home/kiln",    // not a Windows path
		`\\HOST\share\kiln`: `\\host\Share\kiln`,
	} {
		got, err := db.Read().RecordedProject(ctx, in)
		if err != nil || got != want {
			t.Errorf("RecordedProject(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
