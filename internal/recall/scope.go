package recall

import (
	"context"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// maxScopeUp is how many directories above a project scopeProject looks
// for the one its sessions were recorded in.
const maxScopeUp = 8

// scopeCount is how many events scopeProject counts on either side.
const scopeCount = 100

// scopeProject is the project whose memories recall reads for a prompt of
// session in project: project itself, or the nearest directory above it
// whose recorded sessions did more of its work than its own did: more of
// their messages and tool runs name its path (a file of it read or
// written, a command run in it) than it has messages and tool runs of
// its own, the session's aside. Claude launched in a folder of repositories
// ("~/dev/hackathon") files its sessions there, though their work was in
// one repository; opened in that repository later, its first sessions
// would recall nothing of that work. A directory above whose sessions
// never name the project (the home directory, used for something else) is
// not read.
//
// Only counts are read, each up to scopeCount; a project with no
// recorded directory above it costs a lookup of each, at most maxScopeUp.
func scopeProject(ctx context.Context, db *store.DB, project, session string) (string, error) {
	if project == "" {
		return project, nil
	}
	own := -1 // counted once a directory above has sessions
	d := project
	for range maxScopeUp {
		k := strings.LastIndexAny(d, `/\`)
		if k <= 0 || !strings.ContainsAny(d[:k], `/\`) {
			return project, nil // not the root: every project is below it
		}
		d = d[:k]
		if up, err := db.Sessions(ctx, d, 1); err != nil || len(up) == 0 {
			if err != nil {
				return project, err
			}
			continue
		}
		if own < 0 {
			n, err := db.CountOtherEvents(ctx, project, session, messageTypes, scopeCount)
			if err != nil {
				return project, err
			}
			own = n
		}
		// The path's words as a phrase: "/home/dev/hacknight/glazer-kiln"
		// in a read, a write, a command run in it.
		named, err := db.CountProjectMatches(ctx, store.MatchAny([]string{project}, false), d, scopeCount)
		if err != nil {
			return project, err
		}
		if named > own {
			return d, nil
		}
	}
	return project, nil
}
