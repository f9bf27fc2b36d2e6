package recall

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// maxScopeUp is how many directories above a project scopeProject looks
// for the one its sessions were recorded in.
const maxScopeUp = 8

// minScopeNamed is how many of a directory's events must name a project
// below it for that project to read it: one path in a command ("mkdir -p
// ~/dev/newapp") is no work done there.
const minScopeNamed = 3

// scopeProject is the project whose memories recall reads for a prompt of
// session in project: project itself, or, while project has no messages
// or tool runs of its own outside session, the nearest directory above it
// whose recorded sessions did its work: minScopeNamed of their events or
// more name its path (a file of it read or written, a command run in it).
// Claude launched in a folder of repositories ("~/dev/hackathon") files
// its sessions there, though their work was in one repository; opened in
// that repository later, its first session would recall nothing of that
// work. Once the repository has memories of its own it reads those: the
// folder's would take their place.
//
// The home directory and those above it are never read: sessions launched
// there did anything, and a path named there is no sign of what they were
// about.
//
// A project with no recorded directory above it costs one indexed lookup
// of them all; one with memories of its own a count more.
func scopeProject(ctx context.Context, db *store.DB, project, session string) (string, error) {
	if project == "" {
		return project, nil
	}
	// The directories above it, nearest first: not the root, nor the home
	// directory or one above it.
	// A Windows drive letter is either case (store.DriveSpellings): the
	// folder above may be filed as "C:\dev" under "c:\dev\kiln", and
	// "c:\Users\dev" is the home directory "C:\Users\dev".
	home, _ := os.UserHomeDir()
	homes := store.DriveSpellings(home)
	var above, spellings []string
	for d := project; len(above) < maxScopeUp; {
		k := strings.LastIndexAny(d, `/\`)
		if k <= 0 || !strings.ContainsAny(d[:k], `/\`) {
			break
		}
		d = d[:k]
		if home != "" && (slices.Contains(homes, d) || within(home, d)) {
			break
		}
		above = append(above, d)
		spellings = append(spellings, store.DriveSpellings(d)...)
	}
	recorded, err := db.ProjectsRecorded(ctx, spellings)
	if err != nil || len(recorded) == 0 {
		return project, err
	}
	if n, err := db.CountOtherEvents(ctx, project, session, messageTypes, 1); err != nil || n > 0 {
		return project, err
	}
	spelled := store.DriveSpellings(project)
	for _, d := range above {
		ds := store.DriveSpellings(d)
		i := slices.IndexFunc(ds, func(s string) bool { return recorded[s] })
		if i < 0 {
			continue
		}
		d = ds[i] // as the store files it
		// The path's words as a phrase ("/home/dev/hacknight/glazer-kiln"),
		// then the path itself, not the start of a sibling's
		// ("glazer-kiln-v2").
		hits, err := db.SearchEvents(ctx, store.EventQuery{Match: store.MatchAny([]string{project}, false), Project: d,
			Newest: true, Limit: 4 * minScopeNamed})
		if err != nil {
			return project, err
		}
		named := 0
		for _, h := range hits {
			if slices.ContainsFunc(spelled, func(p string) bool { return namesPath(h.Text, p) }) {
				named++
			}
		}
		if named >= minScopeNamed {
			return d, nil
		}
	}
	return project, nil
}

// within reports whether path is a directory above dir.
func within(dir, path string) bool {
	rel, err := filepath.Rel(path, dir)
	return err == nil && rel != "." && !strings.HasPrefix(rel, "..")
}

// namesPath reports whether text holds path whole: what follows it ends a
// path's part (a separator, a quote, a space) or the text.
func namesPath(text, path string) bool {
	return anyAt(text, path, func(k int) bool {
		end := k + len(path)
		return end == len(text) || strings.ContainsRune("/\\\"'` \t\n:)]},;", rune(text[end]))
	})
}
