package store

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestRecordedProject: a path on a Windows drive is filed under its
// spelling with the drive letter in the other case where the store's
// sessions hold more of that one (itself on a tie); a path with none, a
// folder spelled otherwise, a share and a path of another system stay as
// they are.
func TestRecordedProject(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	for i, p := range []string{`c:\kiln\glaze`, `c:\kiln\glaze`, `C:\kiln\glaze`, `D:\Kiln`, `d:\Kiln`, "/home/Kiln", `\\host\Share\kiln`, `e:/kiln`} {
		if err := db.Update(ctx, func(tx *Tx) error {
			return tx.TouchSession(ctx, Session{ID: string(rune('a' + i)), Project: p})
		}); err != nil {
			t.Fatal(err)
		}
	}
	for in, want := range map[string]string{
		`C:\kiln\glaze`:     `c:\kiln\glaze`, // two sessions against one
		`c:\kiln\glaze`:     `c:\kiln\glaze`,
		`C:\Kiln\Glaze`:     `C:\Kiln\Glaze`, // a folder's name is as the system spells it
		`C:\kiln\other`:     `C:\kiln\other`, // none recorded
		`d:\Kiln`:           `d:\Kiln`,       // a tie: as asked
		`D:\Kiln`:           `D:\Kiln`,
		`E:/kiln`:           `e:/kiln`,
		"/home/kiln":        "/home/kiln", // not a Windows drive
		`\\HOST\share\kiln`: `\\HOST\share\kiln`,
	} {
		if got, err := db.Read().RecordedProject(ctx, in); err != nil || got != want {
			t.Errorf("RecordedProject(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, want := range map[string][]string{
		`C:\x`: {`C:\x`, `c:\x`}, `c:/x`: {`c:/x`, `C:/x`}, `C:`: {`C:`, `c:`},
		`C:x`: {`C:x`}, "/c:/x": {"/c:/x"}, `1:\x`: {`1:\x`}, "": {""},
	} {
		if got := DriveSpellings(in); !slices.Equal(got, want) {
			t.Errorf("DriveSpellings(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestForgetProjectInEitherDriveCase: a store filed one Windows project
// under both cases of its drive letter; forgetting it by either spelling
// forgets both, and what is then said before the forget under either
// spelling is refused.
func TestForgetProjectInEitherDriveCase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	at := db.Now().Add(-time.Hour)
	ev := func(session, project, text string) Event {
		return Event{Time: at, Type: TypeUserPrompt, SessionID: session, Project: project, Text: text, DedupeKey: Key(KeyPrompt, session, text)}
	}
	if _, err := appendEvents(ctx, db, ev("a", `c:\kiln`, "the glaze recipe"), ev("b", `C:\kiln`, "the kiln schedule"), ev("c", `D:\kiln`, "another drive")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Forget(ctx, ForgetSelector{Project: `C:\kiln`}); err != nil {
		t.Fatal(err)
	}
	left, err := db.Read().Events(ctx, EventFilter{Types: []string{TypeUserPrompt}})
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0].Project != `D:\kiln` {
		t.Errorf("after forgetting C:\\kiln, left: %+v", left)
	}
	for _, p := range []string{`c:\kiln`, `C:\kiln`} {
		if r, err := appendEvents(ctx, db, ev("e", p, "said again under "+p)); err != nil || r.Added != 0 {
			t.Errorf("%s written back after the forget: %+v %v", p, r, err)
		}
	}
}
