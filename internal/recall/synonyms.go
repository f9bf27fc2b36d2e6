package recall

import (
	"slices"
	"sync"
)

// synonymGroups are words a developer uses for the same thing in a question
// and in the session it asks about ("paging" then, "pagination" now; "the db"
// and "the database"). A prompt's word matches any word of its
// group; stemming already joins inflections ("skip", "skipped", "skipping"),
// so a group lists only words with different stems. Kept to words that mean
// the same thing in a coding conversation, not merely related ones: a loose
// group makes unrelated prompts match.
var synonymGroups = [][]string{
	{"paging", "pagination", "paginate", "paginated", "pager"},
	{"flaky", "flakey", "flakiness", "intermittent", "intermittently", "sporadic", "sporadically", "nondeterministic"},
	{"default", "defaults"},
	{"slow", "sluggish", "latency"},
	{"crash", "panic", "segfault"},
	{"repo", "repository", "repos", "repositories"},
	{"db", "database"},
	{"config", "configuration", "settings"},
	{"docs", "documentation"},
	{"env", "environment"},
	{"folder", "directory", "dir"},
	{"login", "signin", "logon"},
	{"photo", "photos", "picture", "pictures", "image", "images"},
}

// synonymIndex maps each group word's index key to its group.
var synonymIndex = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, g := range synonymGroups {
		for _, w := range g {
			m[indexKey(w)] = g
		}
	}
	return m
})

// withSynonyms adds to each concept the words of its synonym group, as more
// ways of writing it.
func withSynonyms(cs []concept) []concept {
	idx := synonymIndex()
	for i := range cs {
		var g []string
		for _, k := range cs[i].keys {
			if g = idx[k]; g != nil {
				break
			}
		}
		for _, w := range g {
			k := indexKey(w)
			if !slices.Contains(cs[i].keys, k) {
				cs[i].forms = append(cs[i].forms, w)
				cs[i].keys = append(cs[i].keys, k)
			}
		}
	}
	return cs
}
