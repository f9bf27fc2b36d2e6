package recall

import (
	"slices"
	"strings"
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

// statusPhrases are the reason phrases of the HTTP error statuses (RFC
// 9110, RFC 6585) a developer names an error by ("method not allowed"),
// where the session that met it may give only its code ("405 is expected
// for GET"). Left out are the phrases of everyday words a message says of
// anything ("not found", "conflict", "gone").
var statusPhrases = map[string]string{
	"bad request": "400", "unauthorized": "401", "forbidden": "403", "method not allowed": "405",
	"not acceptable": "406", "request timeout": "408", "payload too large": "413", "content too large": "413",
	"unsupported media type": "415", "unprocessable entity": "422", "unprocessable content": "422",
	"too many requests": "429", "internal server error": "500", "not implemented": "501",
	"bad gateway": "502", "service unavailable": "503", "gateway timeout": "504",
}

// withStatusCodes adds to the concepts of the words of an HTTP status's
// reason phrase the prompt names (its words in a row, written with
// spaces, hyphens or underscores) the status's code, as one more way of
// writing each.
func withStatusCodes(cs []concept, prompt string) []concept {
	words := lowerRuns(prompt)
	for phrase, code := range statusPhrases {
		run := strings.Fields(phrase)
		if !inRow(words, run) {
			continue
		}
		for i := range cs {
			if !slices.ContainsFunc(run, func(w string) bool { return slices.Contains(cs[i].forms, w) }) || slices.Contains(cs[i].forms, code) {
				continue
			}
			cs[i].forms = append(cs[i].forms, code)
			cs[i].keys = append(cs[i].keys, indexKey(code))
		}
	}
	return cs
}
