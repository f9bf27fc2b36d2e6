// Package synthetic writes seeded Claude Code histories to benchmark imports with.
package synthetic

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// History writes transcripts shaped like the transcript tmpl into dir until
// they total at least size bytes: each a copy with fresh uuids, message and
// tool ids, a project of its own among 25, dates 97 minutes apart, the
// resource it works on, and one decision of its own, so that claims recur
// across sessions now and then, as in a real history. The same seed writes
// the same files. It returns the number of files and bytes written.
func History(tmpl []byte, dir string, size int64, seed uint64) (int, int64, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, 0, err
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	uuidRe := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	idRe := regexp.MustCompile(`\b(msg|toolu|req)_[A-Za-z0-9]+`)
	tsRe := regexp.MustCompile(`"timestamp":"([^"]+)"`)
	libs := []string{"zod", "pino", "knex", "prisma", "vitest", "fastify", "redis", "bullmq", "sentry", "helmet", "jose", "undici"}
	resources := []string{"invoices", "carts", "payments", "users", "shipments", "refunds", "coupons", "reviews", "stock", "reports"}
	areas := []string{"validation", "logging", "migrations", "the ORM", "tests", "the HTTP layer", "caching", "queues", "error reporting", "headers", "tokens", "outbound calls"}
	var total int64
	n := 0
	for total < size {
		ids := map[string]string{}
		fresh := func(old string) string {
			if v, ok := ids[old]; ok {
				return v
			}
			v := fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", rng.Uint32(), rng.Uint32()&0xffff, rng.Uint32()&0xfff, rng.Uint32()&0xfff, rng.Uint64()&0xffffffffffff)
			ids[old] = v
			return v
		}
		s := uuidRe.ReplaceAllStringFunc(string(tmpl), fresh)
		s = idRe.ReplaceAllStringFunc(s, func(old string) string {
			if v, ok := ids[old]; ok {
				return v
			}
			p := old[:strings.IndexByte(old, '_')+1]
			v := fmt.Sprintf("%s%016x%08x", p, rng.Uint64(), rng.Uint32())
			ids[old] = v
			return v
		})
		shift := time.Duration(n) * 97 * time.Minute
		s = tsRe.ReplaceAllStringFunc(s, func(m string) string {
			t, err := time.Parse(time.RFC3339Nano, tsRe.FindStringSubmatch(m)[1])
			if err != nil {
				return m
			}
			return `"timestamp":"` + t.Add(shift).UTC().Format("2006-01-02T15:04:05.000Z") + `"`
		})
		s = strings.ReplaceAll(s, "/home/dev/shop-api", fmt.Sprintf("/home/dev/service-%02d", n%25))
		// Each session works on its own resource, so that claims recur across
		// sessions now and then, as in a real history, not in every session.
		res := fmt.Sprintf("%s%d", resources[rng.IntN(len(resources))], rng.IntN(50))
		s = strings.ReplaceAll(s, "orders", res)
		s = strings.ReplaceAll(s, "Orders", strings.ToUpper(res[:1])+res[1:])
		i, j := rng.IntN(len(libs)), rng.IntN(len(areas))
		s = strings.Replace(s, "needs a valid token.", fmt.Sprintf("needs a valid token. We decided to use %s for %s in ticket %d.", libs[i], areas[j], n), 1)
		sid := uuidRe.FindString(s[strings.Index(s, `"sessionId":"`):])
		if err := os.WriteFile(filepath.Join(dir, sid+".jsonl"), []byte(s), 0o600); err != nil {
			return n, total, err
		}
		total += int64(len(s))
		n++
	}
	return n, total, nil
}
