package recall

import (
	"fmt"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// Follow-ups about the project's own past that the precision rules of pass
// 83 must leave answered (review 307 found each silenced by a first form of
// them): a role question whose role word is no product, a request naming
// the project's own things, a "should we" about them, an address of the
// project's component.

func ownPastStore(t *testing.T) *store.DB {
	t.Helper()
	db := storetest.Open(t)
	filler(t, db)
	// Each exchange three times, over days: name, days before day, prompt, answer.
	talk := []struct {
		name           string
		days           int
		prompt, answer string
	}{
		{"lint", -20, "Set up the eslint config for the web package with the airbnb preset and the import order rule.",
			"The web package now has an eslint config extending airbnb, with import/order and no-floating-promises enabled."},
		{"retry", -15, "The payments worker drops webhooks when Stripe times out.",
			"I wrapped the payments worker's Stripe calls in a retry helper, withBackoff, that retries five times with jittered exponential backoff."},
		{"orm", -8, "The checkout service queries are slow.",
			"The checkout service talks to Postgres through Prisma; I added an index on orders.customer_id in schema.prisma."},
		{"ci", -12, "Make the pipeline faster.",
			"The pipeline now runs on GitHub Actions with a pnpm store cache; lint and tests run in parallel jobs."},
		{"vt", -9, "The web package tests are flaky.",
			"The web package runs its tests with Vitest; I pinned the jsdom environment in its config."},
		{"db", -6, "Point the importer at the reporting replica.",
			"Done: the importer now reads from the reporting replica at 10.20.4.17, with REPORTING_DSN in its .env."},
		{"sync", -7, "The sync client gives up too early when the replica restarts.",
			"I raised max_retries in the sync client's settings from 3 to 5."},
	}
	for i := range 3 {
		for _, x := range talk {
			say(t, db, fmt.Sprintf("%s-%d", x.name, i), day.AddDate(0, 0, x.days+i), x.prompt, x.answer)
		}
	}
	put(t, db, "fact", "replica", "Reporting replica address", "The reporting replica listens on port 6543 at 10.20.4.17.", -5)
	put(t, db, "decision", "jobs", "Background jobs go through Zorbus", "Background jobs go through Zorbus; the worker consumes the jobs.default queue.", -4)
	return db
}

func wantRecalled(t *testing.T, db *store.DB, prompt, want string) {
	t.Helper()
	if got := recallFor(t, db, defaults(), prompt); !strings.Contains(got, want) {
		t.Errorf("%q lost its recall (want %q):\n%s", prompt, want, got)
	}
}

// wantNothing checks that each of prompts gets no injection.
func wantNothing(t *testing.T, db *store.DB, prompts ...string) {
	t.Helper()
	for _, p := range prompts {
		if got := recallFor(t, db, defaults(), p); got != "" {
			t.Errorf("%q got an injection:\n%s", p, got)
		}
	}
}

// TestRoleWordIsNoUnseenProduct: the word asking a role ("ORM", "CI",
// "IP"), which no English table knows, names no product the project never
// wrote: the question asks the project's choice, whose statement uses the
// value, not the role's word.
func TestRoleWordIsNoUnseenProduct(t *testing.T) {
	t.Parallel()
	db := ownPastStore(t)
	wantRecalled(t, db, "Which ORM does the checkout service use?", "Prisma")
	wantRecalled(t, db, "which CI does the pipeline run on?", "GitHub Actions")
	wantRecalled(t, db, "what port and IP?", "6543")
	wantRecalled(t, db, "Where do background jobs get enqueued?", "Zorbus") // "enqueued" asks the queue
}

// TestOurThingInAWorkRequest: "our X" in a request for new work names a
// thing the project has, whose details are in memory.
func TestOurThingInAWorkRequest(t *testing.T) {
	t.Parallel()
	db := ownPastStore(t)
	wantRecalled(t, db, "add our eslint config to the api package", "airbnb")
	wantRecalled(t, db, "set up eslint in the api package like ours in web", "airbnb")
	wantRecalled(t, db, "write tests for our retry logic", "withBackoff")
}

// TestShouldWeFollowUp: "should we …" about the project's own things asks
// for a decision about what is there, not for new work.
func TestShouldWeFollowUp(t *testing.T) {
	t.Parallel()
	db := ownPastStore(t)
	wantRecalled(t, db, "Should we add our eslint config to the api package?", "airbnb")
	wantRecalled(t, db, "should we add eslint to the api package the way we set it up in web?", "airbnb")
}

// TestAddressOfOwnComponent: an address is no value every project's
// output holds (claim.Everywhere): a statement of the importer's opens the
// gate for a question about it, without "we" or a past verb.
func TestAddressOfOwnComponent(t *testing.T) {
	t.Parallel()
	db := ownPastStore(t)
	wantRecalled(t, db, "which IP does the importer read from?", "10.20.4.17")
}

// TestProposalOfAnUnseenProduct: a prompt naming a product the project
// never wrote asks about that product, "we" or not: a proposal to bring it
// in, or what its manual says. A word written as a name counts: one no
// English table knows ("Traefik"), an English word ("Storybook"), an
// identifier no text writes whole ("hooksPath", whose "path" any store
// holds). The project's own things asked the same way stay answered, here
// and in TestShouldWeFollowUp.
func TestProposalOfAnUnseenProduct(t *testing.T) {
	t.Parallel()
	db := ownPastStore(t)
	wantNothing(t, db,
		"Should we put our checkout service behind Traefik?",
		"I was wondering if we should put our checkout service behind Traefik?", // a hedge asks no past
		"How do we put our checkout service behind Traefik?",                    // a how-to form with "we"
		"Should we add Storybook to document the web package's components?",
		"What does the web package's lint job do when core.hooksPath is set?",
	)
	wantRecalled(t, db, "Should we keep our pipeline on GitHub Actions?", "pnpm store cache")
	wantRecalled(t, db, "Which port does the reporting replica listen on?", "6543")
	// An identifier the store writes apart is no unseen name (review 309).
	wantRecalled(t, db, "Which ORM does the checkoutService use?", "Prisma")
	wantRecalled(t, db, "Should we lower maxRetries in the sync client again?", "from 3 to 5")
}

// TestProposalOfAnUnseenProductInLowerCase: a proposal names the tool it
// would bring in lower case too ("fastify", "hono"): a word neither
// everyday English nor code's (wordfreq.Programming: "config",
// "middleware" are code's words, not names) that the store never wrote.
// Chat's shorthand is no name ("tbh", "lgtm"): a word shorter than
// minProposedName counts only where the claim tables list it ("hono"). A
// tool the store wrote ("eslint") is the project's own.
func TestProposalOfAnUnseenProductInLowerCase(t *testing.T) {
	t.Parallel()
	db := ownPastStore(t)
	wantNothing(t, db,
		"should we swap the checkout service over to fastify?",
		"should we swap the checkout service over to hono?",
		"can we move the web package's tests to uvu-style runners with oclif?",
	)
	wantRecalled(t, db, "should we add our eslint config to the api package tbh?", "airbnb")
	wantRecalled(t, db, "can we add our eslint config to the api package, lgtm?", "airbnb")
	wantRecalled(t, db, "should we add our eslint config and its middleware to the api package?", "airbnb")
}

func TestWrittenAsName(t *testing.T) {
	for _, c := range []struct {
		prompt, w string
		want      bool
	}{
		{"Should we add Storybook to our site?", "storybook", true},
		{"should we move to Cloud Run?", "cloud", true},
		{"Storybook or not?", "storybook", false},     // opens the prompt
		{"Done. Storybook next?", "storybook", false}, // opens a sentence
		{"which ORM do we use?", "orm", false},        // an acronym
		{"we document it in a storybook", "storybook", false},
		{"the InfluxDB port", "influx", false}, // a part of a word
		{"the InfluxDB port", "influxdb", true},
		{"what is core.hooksPath set to?", "hookspath", true},
		{"how do we sign JWT tokens?", "jwt", false},
		{"should the api package's JWTs expire?", "jwts", false}, // an acronym's plural
		{"- Caching for the api", "caching", false},              // a list item opens
		{"notes\n## Caching", "caching", false},                  // a heading opens
		{"should we add “Traefik” in front?", "traefik", true},
		{"is Storybook’s addon needed?", "storybook", true},
		{"is Storybook—or Ladle—worth it?", "storybook", true},
		{"should we add **Storybook** to it?", "storybook", true}, // emphasis, not a list item
		{"* Storybook for the docs", "storybook", false},
	} {
		if got := writtenAsName(c.prompt, c.w); got != c.want {
			t.Errorf("writtenAsName(%q, %q) = %v, want %v", c.prompt, c.w, got, c.want)
		}
	}
}
