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

// abbreviations are the short forms code writes in names ("MIN_FACE_SIZE",
// "maxRetries", "PROD_URL", "submitBtn") for a word a question says in
// full. One way only: a prompt's "min" is as often minutes ("wait 5 min"),
// and its "max" a name.
var abbreviations = map[string]string{"minimum": "min", "maximum": "max", "production": "prod", "button": "btn"}

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

// withSynonyms adds to each concept the words of its synonym group, and
// the abbreviation of a word said in full, as more ways of writing it.
func withSynonyms(cs []concept) []concept {
	idx := synonymIndex()
	for i := range cs {
		var g []string
		ofGloss := false // the group is a translation's (concept.glossSynonyms)
		for _, k := range cs[i].keys {
			if g = idx[k]; g != nil {
				ofGloss = slices.Contains(cs[i].glosses, k)
				break
			}
		}
		if a, ok := abbreviations[cs[i].forms[0]]; ok {
			g = append(slices.Clip(g), a)
		}
		for _, w := range g {
			k := indexKey(w)
			if !slices.Contains(cs[i].keys, k) {
				cs[i].forms = append(cs[i].forms, w)
				cs[i].keys = append(cs[i].keys, k)
				if ofGloss {
					cs[i].glossSynonyms = append(cs[i].glossSynonyms, k)
				}
			}
		}
	}
	return cs
}

// statusPhrases are the reason phrases of the HTTP error statuses (RFC
// 9110, RFC 6585) a developer names an error by ("method not allowed"),
// where the session that met it may give only its code ("405 is expected
// for GET"), each phrase's words with its code. Left out are the phrases a
// message says of anything ("not found", "bad request", "request
// timeout", "not implemented", "too many requests", "forbidden").
var statusPhrases = []struct {
	words []string
	code  string
}{
	{[]string{"method", "not", "allowed"}, "405"},
	{[]string{"not", "acceptable"}, "406"},
	{[]string{"payload", "too", "large"}, "413"},
	{[]string{"content", "too", "large"}, "413"},
	{[]string{"unsupported", "media", "type"}, "415"},
	{[]string{"unprocessable", "entity"}, "422"},
	{[]string{"unprocessable", "content"}, "422"},
	{[]string{"internal", "server", "error"}, "500"},
	{[]string{"bad", "gateway"}, "502"},
	{[]string{"service", "unavailable"}, "503"},
	{[]string{"gateway", "timeout"}, "504"},
}

// withStatusCodes adds an HTTP status's code to the concept of the last
// word of its reason phrase, when the prompt names the phrase (its words in
// a row, written with spaces, hyphens or underscores): one more way of
// writing the error, weighed as one word ("500 rows" matches that word's
// concept alone, not "internal" and "server" too).
func withStatusCodes(cs []concept, prompt string) []concept {
	var words []string // read only for a prompt that may name a phrase
	for _, p := range statusPhrases {
		last := p.words[len(p.words)-1]
		i := slices.IndexFunc(cs, func(c concept) bool { return slices.Contains(c.forms, last) })
		if i < 0 || slices.Contains(cs[i].forms, p.code) {
			continue
		}
		if words == nil {
			words = lowerRuns(prompt)
		}
		if inRow(words, p.words) {
			cs[i].forms = append(cs[i].forms, p.code)
			cs[i].keys = append(cs[i].keys, indexKey(p.code))
		}
	}
	return cs
}
