package claim

import (
	"slices"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
)

// genericRoles are roles whose values are shapes rather than named tools:
// two ports or two paths in one project are often about different things, so
// they conflict only when the statements share what they are about.
var genericRoles = map[string]bool{"port": true, "address": true, "region": true, "path": true, "time": true, "host": true,
	"timeout": true, "ttl": true, "interval": true, "retention": true, "delay": true, "retries": true, "replicas": true, "workers": true,
	"threads": true, "partitions": true, "shards": true, "connections": true, "instances": true, "processes": true,
	"concurrency": true, "request rate": true, "ci runner": true, "bucket": true, "branch": true, "topic": true,
	"queue name": true, "cluster": true, "namespace": true, "image": true, "channel": true, "domain": true,
	"table": true, "index": true, "repository": true, "env var": true, "command": true}

// namedRoles are roles of identifiers (paths, hosts, branch and bucket
// names): a text often names several that are not alternatives.
var namedRoles = map[string]bool{"path": true, "host": true, "bucket": true, "branch": true, "topic": true,
	"queue name": true, "cluster": true, "namespace": true, "image": true, "channel": true, "domain": true,
	"table": true, "index": true, "repository": true, "env var": true, "command": true}

// Identifier reports whether a role's values are identifiers (paths, hosts,
// branch and bucket names): a statement naming one conflicts with another
// only by naming the other as replaced.
func Identifier(role string) bool { return namedRoles[role] }

// cueRoles conflict only with change wording: a project is often written in
// several languages and on several clouds at once, and chooses many things
// for purposes its statements do not name ("choice": "use Kelbo").
var cueRoles = map[string]bool{"language": true, "cloud provider": true, "auth method": true, "team chat": true,
	"vcs host": true, "container runtime": true, "choice": true}

// qualifiers name a component or environment: statements whose qualifiers
// are disjoint ("the iOS app" vs "the Android app", "staging" vs
// "production") decide for different things.
// Environments and components are told apart separately: "the frontend in
// development" and "the admin service in development" are two components.
var qualifiers = []func() map[string]bool{
	lazywords.Set(`staging production prod development dev local sandbox preview qa 스테이징 프로덕션 운영 개발`),
	lazywords.Set(`frontend front-end backend back-end client server web mobile ios android desktop docs doc documentation
		admin worker internal external public private legacy enterprise free premium cli 프론트엔드 백엔드 모바일`),
}

// Qualifier reports a word naming an environment or a component
// ("production", "backend"): Compare reads it as what a statement is for,
// and where a statement sets one as a value it names a thing, not what is
// done to one.
func Qualifier(w string) bool {
	return slices.ContainsFunc(qualifiers, func(set func() map[string]bool) bool { return set()[w] })
}

// Compare tells how newer relates to older, with the role and both values on
// which it decided. Supersedes needs the newer text to say it changes
// something: by naming the old value ("instead of X", "X is deprecated") or
// with change wording about the same thing; Contradicts is another value for
// the same role about the same thing without such wording. Claims about
// different components, exceptions and additions are not conflicts.
func Compare(older, newer []Claim) (rel Relation, role, oldValue, newValue string) {
	best := 0
	consider := func(score int, r Relation, ro, ov, nv string) {
		if score > best {
			best, rel, role, oldValue, newValue = score, r, ro, ov, nv
		}
	}
	agreed := false
	for _, o := range older {
		if o.Negated || o.Weak {
			continue
		}
		for _, n := range newer {
			if n.Weak || n.tally {
				continue
			}
			sameRole := n.Role == o.Role
			if o.tally && !(sameRole && n.Replaces == o.Value) {
				// A number of things said without a change is set only
				// against a count the newer says it changed: a project
				// counts many things.
				continue
			}
			// Explicit: the newer names the older value as replaced or rejected.
			// Roles may differ when one is a tool's: a phrase role can read
			// like a shape's ("docs hosting" -> host). A bare number names
			// nothing on its own, so it needs the same role.
			if sameHost(n.Replaces, o.Value) && !sameName(n.Value, o.Value) &&
				(sameRole || !isNumber(o.Value) && (!genericRoles[o.Role] || !genericRoles[n.Role])) &&
				!(isIPv4(o.Value) && otherNames(older, newer)) {
				if slices.ContainsFunc(older, func(c Claim) bool {
					return c.Role == n.Role && !c.Negated && c.Replaces == n.Replaces && sameName(c.Value, n.Value) && (o.Start <= c.Start || o.Replaces != "")
				}) {
					// The older reported the same change after stating X
					// ("moved from X to Y", later "Y only now, X is
					// gone"): the newer restates it and replaces nothing
					// the older holds. X stated after that change ("the
					// cache still uses X") is what the newer replaces;
					// X said after it as itself a change is not stated as
					// current.
					continue
				}
				consider(6, Supersedes, o.Role, o.Value, n.Value)
				continue
			}
			if !sameRole {
				if n.Changed && !n.Negated && n.Replaces == "" && n.Value != o.Value && namesEach(o, n) && !disjoint(o.Scope, n.Scope) &&
					sameShape(o, n) {
					// One subject read from two sides ("Pimento for the PDF
					// rendering", "render the PDFs with Carvo instead").
					consider(4, Supersedes, o.Role, o.Value, n.Value)
				}
				continue
			}
			if n.Negated && sameName(n.Value, o.Value) {
				consider(5, Supersedes, o.Role, o.Value, replacement(newer, n))
				continue
			}
			if sameName(n.Value, o.Value) {
				agreed = true
				consider(1, Agrees, o.Role, o.Value, n.Value)
				continue
			}
			if n.Negated || n.Replaces != "" {
				// It rejects or replaces a third value ("Rust bindings, no
				// Python"): it says nothing about the older one.
				continue
			}
			if n.Except {
				consider(2, Refines, o.Role, o.Value, n.Value)
				continue
			}
			if o.Role == "host" && n.Changed && redeployed(o.Value, n.Value) && !disjoint(o.Scope, n.Scope) {
				// A deployment's generated address, generated again and
				// said with change wording ("is now live at …"): the newer
				// deploy is where the site is now. Without it, two such
				// addresses are mostly two resources (two CDN
				// distributions, two APIs).
				consider(4, Supersedes, o.Role, o.Value, n.Value)
				continue
			}
			if disjoint(o.Scope, n.Scope) || namedRoles[o.Role] || !sameShape(o, n) || nested(o.Value, n.Value) && !n.moved {
				// Paths and names conflict only when the newer names the
				// older one as replaced: a project has many of each. So
				// do a setting's name and two values of different
				// shapes: "USE_CACHE" and "USE_CACHE_TTL" are two
				// settings, and "3" is no alternative to "comments".
				// Nor is a maker's name an alternative to its product
				// ("Kelbo" and "Kelbo Speech"): one names the other,
				// unless change wording marks the newer as the one set
				// ("runs on Kelbo Speech now").
				continue
			}
			shared := overlaps(o.Scope, n.Scope) || !genericRoles[o.Role] && (len(o.Scope) == 0 || len(n.Scope) == 0)
			if !shared && !genericRoles[o.Role] && o.Role != "choice" && n.Changed {
				// A tool role with change wording ("scratch that, plain
				// gofmt is enough"): the role is specific enough unless
				// the scopes name different components. Not "choice",
				// which names no role at all: two choices sharing no word
				// of what they are for ("use Kelbo to draw the charts",
				// "now use Quillet to send the mail") are of two things.
				shared = true
			}
			if !shared {
				continue
			}
			if slices.ContainsFunc(older, func(c Claim) bool {
				return c.Role == o.Role && c.Start < o.End && o.Start < c.End && !c.Negated && !c.Weak && sameName(c.Value, n.Value)
			}) {
				// The older named both in one statement ("we run the
				// Kelbo and the Quillet readers side by side"; a value
				// said again later widens its span, so the spans need
				// only meet): the newer naming one of them changes
				// neither. Only naming the other as replaced does. Said
				// in two statements ("we use Kelbo; we tried Quillet
				// once"), the older did choose.
				continue
			}
			if n.Changed && o.Replaces == n.Value {
				// The older put its value in place of the newer's ("moved
				// from X to Y"); a later statement naming X with change
				// wording about something else does not turn that back.
				// Only naming Y as replaced does.
				continue
			}
			if n.Changed {
				consider(4, Supersedes, o.Role, o.Value, n.Value)
			} else if !cueRoles[o.Role] {
				consider(3, Contradicts, o.Role, o.Value, n.Value)
			}
		}
	}
	if rel == Agrees && agreed {
		// Agreeing on a role while adding another is a refinement.
		for _, n := range newer {
			if !slices.ContainsFunc(older, func(o Claim) bool { return o.Role == n.Role }) {
				return Refines, role, oldValue, newValue
			}
		}
	}
	return rel, role, oldValue, newValue
}

// redeployed reports two hosts that differ only in an opaque id one label
// holds: the address a hosting service generates for each deployment or
// tunnel ("13656410.shop.pages.dev" and "3fe25c72.shop.pages.dev",
// "shop-4xk2j9abc-team.vercel.app"). A label's other parts and every other
// label are the same; each differing part is an id (opaqueID), not a word
// or a version ("api-v2" and "api-v3" are two APIs). What they share names
// the project, beyond the service's own domain: a label besides the last
// two, or a part of the id's label ("d111111abcdef8.cloudfront.net" and
// "d2222222abcde9.cloudfront.net" share only the service's).
func redeployed(a, b string) bool {
	la, lb := strings.Split(a, "."), strings.Split(b, ".")
	if a == b || len(la) != len(lb) || len(la) < 3 {
		return false
	}
	differ, named := 0, len(la) > 3
	for i := range la {
		if la[i] == lb[i] {
			continue
		}
		differ++
		pa, pb := strings.Split(la[i], "-"), strings.Split(lb[i], "-")
		if len(pa) != len(pb) {
			return false
		}
		for k := range pa {
			if pa[k] == pb[k] {
				named = true
			} else if !opaqueID(pa[k]) || !opaqueID(pb[k]) {
				return false
			}
		}
	}
	return differ == 1 && named
}

// opaqueID reports a generated id: six or more letters and digits with a
// digit among them ("3fe25c72", "4xk2j9abc").
func opaqueID(s string) bool {
	if len(s) < 6 {
		return false
	}
	digit := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r >= 'a' && r <= 'z':
		default:
			return false
		}
	}
	return digit
}

// sameName reports two values that name one thing: equal, or one the
// other's site ("zentrox" and "zentrox.dev", "kelvo" and "kelvo.app").
func sameName(a, b string) bool {
	return a == b || siteOf(a) == b || a == siteOf(b)
}

// otherNames reports two statements that each name a thing by a plain
// word (a claim's value: "redis", "postgres") and share none of them: an
// address one rejects is another thing's address than the one the other
// gave ("Postgres is at 10.0.0.9, not 10.0.0.5" says nothing of "Redis
// listens on 10.0.0.5:6379").
func otherNames(older, newer []Claim) bool {
	names := func(cs []Claim) []string {
		var out []string
		for _, c := range cs {
			if !c.Negated && c.Replaces == "" && !counting(c.Role) && letterWord(c.Value) {
				out = append(out, c.Value)
			}
		}
		return out
	}
	a, b := names(older), names(newer)
	return len(a) > 0 && len(b) > 0 && !slices.ContainsFunc(a, func(v string) bool { return slices.Contains(b, v) })
}

// sameHost reports a replaced value naming the value an older statement
// gave, an address with its port or without ("not 10.0.0.5" rejects
// "10.0.0.5:5432": the port says where on the host, not another host).
func sameHost(replaced, v string) bool {
	if replaced == "" || replaced == v {
		return replaced != ""
	}
	a, pa, ca := strings.Cut(replaced, ":")
	b, pb, cb := strings.Cut(v, ":")
	return ca != cb && a == b && (isIPv4(a) || isHost(a)) && (!ca || isPortNumber(pa)) && (!cb || isPortNumber(pb))
}

// siteOf returns the name a domain was made from ("zentrox.dev" -> "zentrox"),
// or "" for a value that is not a name with one top-level domain. A file
// name ("notes.py") is not a domain.
func siteOf(v string) string {
	k := strings.LastIndexByte(v, '.')
	if k <= 0 || strings.ContainsAny(v[:k], "./:@ ") || fileExts[v[k+1:]] {
		return ""
	}
	tld := v[k+1:]
	if len(tld) < 2 || len(tld) > 6 || !letterWord(tld) || strings.Contains(tld, "-") {
		return ""
	}
	return v[:k]
}

// sameShape reports whether two claims' values can stand for one thing
// without the newer naming the older as replaced: neither is a setting's
// name (Claim.Setting), which names what is set rather than a value of it
// ("USE_CACHE" and "USE_CACHE_TTL" are two settings), and both or neither
// are numbers, except a version's ("18" and "lts").
func sameShape(o, n Claim) bool {
	return !o.Setting && !n.Setting && (isNumber(o.Value) == isNumber(n.Value) || strings.HasPrefix(o.Role, "version:"))
}

// nested reports two values of which one is the other's first words
// ("kelbo" and "kelbo speech").
func nested(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return a != b && strings.HasPrefix(b, a+" ")
}

// replacement is the value newer puts in place of the one n rejects. A
// project has many paths, hosts and other names: one of those takes the
// rejected one's place only in its statement ("Replace the single
// play/pause with two toggles" says nothing of a path named a line above).
func replacement(newer []Claim, n Claim) string {
	for _, c := range newer {
		if c.Role == n.Role && !c.Negated && !c.Weak && c.Value != n.Value && (!namedRoles[n.Role] || c.Start < n.End && n.Start < c.End) {
			return c.Value
		}
	}
	return ""
}

// disjoint reports whether both scopes name environments, or both name
// components, and none in common.
func disjoint(a, b []string) bool {
	for _, q := range qualifiers {
		if disjointIn(q(), a, b) {
			return true
		}
	}
	return false
}

func disjointIn(q map[string]bool, a, b []string) bool {
	qa, qb := false, false
	for _, w := range a {
		if q[w] {
			qa = true
			if slices.Contains(b, w) {
				return false
			}
		}
	}
	for _, w := range b {
		if q[w] {
			qb = true
		}
	}
	return qa && qb
}

// overlaps reports whether two sorted scopes share a word.
func overlaps(a, b []string) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// namesEach reports two roles read from phrases ("render", "pdf"), each
// named among the other statement's words: the statements are about one
// thing, named by different words of it.
func namesEach(o, n Claim) bool {
	for _, r := range []string{o.Role, n.Role} {
		if genericRoles[r] || cueRoles[r] || tableRoles()[r] || strings.HasPrefix(r, "version:") {
			return false
		}
	}
	return inScope(o.Role, n.Scope) && inScope(n.Role, o.Scope)
}

// inScope reports whether role is one of scope's words, by stem.
func inScope(role string, scope []string) bool {
	for _, w := range scope {
		if w == role || wordStem(w) == role {
			return true
		}
	}
	return false
}
