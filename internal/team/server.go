package team

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The server's schema lives in its own PostgreSQL schema, "cml". Each
// migration runs once, in order, in the transaction that records its
// version; team init applies the pending ones.
//
// Access: a team is a PostgreSQL role (NOLOGIN) its members are granted.
// Row-level security lets a role read and write only the rows of the teams
// it is a member of (pg_has_role), and only its own rows: author is
// current_user, set by the server and checked by every policy, so no one
// writes as someone else. Change rows are written only by triggers on
// memories, under a per-team advisory lock held to the commit, so the
// change sequence of a team is in commit order and a pull by cursor never
// skips a change that commits late.
var migrations = []string{
	// 1: shared memories, their change log, idempotency keys.
	`CREATE TABLE cml.memories (
		team       text        NOT NULL,
		project    text        NOT NULL,
		id         text        NOT NULL,
		author     name        NOT NULL DEFAULT current_user,
		type       text        NOT NULL,
		title      text        NOT NULL,
		body       text        NOT NULL DEFAULT '',
		subject    text        NOT NULL DEFAULT '',
		stage      text        NOT NULL,
		status     text        NOT NULL,
		quotes     text[]      NOT NULL DEFAULT '{}',
		created_at timestamptz NOT NULL,
		updated_at timestamptz NOT NULL DEFAULT now(),
		PRIMARY KEY (team, id)
	);
	CREATE TABLE cml.changes (
		seq       bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		team      text        NOT NULL,
		project   text        NOT NULL,
		memory_id text        NOT NULL,
		op        text        NOT NULL CHECK (op IN ('put', 'forget')),
		author    name        NOT NULL DEFAULT current_user,
		at        timestamptz NOT NULL DEFAULT now()
	);
	CREATE INDEX changes_team_seq ON cml.changes (team, seq);
	CREATE TABLE cml.applied (
		team   text        NOT NULL,
		key    text        NOT NULL,
		author name        NOT NULL DEFAULT current_user,
		at     timestamptz NOT NULL DEFAULT now(),
		PRIMARY KEY (team, key)
	);

	CREATE FUNCTION cml.log_change() RETURNS trigger LANGUAGE plpgsql AS $$
	DECLARE
		r cml.memories;
	BEGIN
		IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
		PERFORM pg_advisory_xact_lock(hashtext('cml.changes'), hashtext(r.team));
		INSERT INTO cml.changes (team, project, memory_id, op)
			VALUES (r.team, r.project, r.id, CASE WHEN TG_OP = 'DELETE' THEN 'forget' ELSE 'put' END);
		RETURN NULL;
	END $$;
	CREATE TRIGGER memories_log AFTER INSERT OR UPDATE OR DELETE ON cml.memories
		FOR EACH ROW EXECUTE FUNCTION cml.log_change();

	CREATE FUNCTION cml.set_author() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		NEW.author := current_user;
		NEW.updated_at := now();
		RETURN NEW;
	END $$;
	CREATE TRIGGER memories_author BEFORE INSERT OR UPDATE ON cml.memories
		FOR EACH ROW EXECUTE FUNCTION cml.set_author();

	ALTER TABLE cml.memories ENABLE ROW LEVEL SECURITY;
	ALTER TABLE cml.changes ENABLE ROW LEVEL SECURITY;
	ALTER TABLE cml.applied ENABLE ROW LEVEL SECURITY;
	CREATE POLICY read ON cml.memories FOR SELECT USING (pg_has_role(current_user, team, 'member'));
	CREATE POLICY add ON cml.memories FOR INSERT
		WITH CHECK (pg_has_role(current_user, team, 'member') AND author = current_user);
	CREATE POLICY change ON cml.memories FOR UPDATE
		USING (pg_has_role(current_user, team, 'member') AND author = current_user)
		WITH CHECK (pg_has_role(current_user, team, 'member') AND author = current_user);
	CREATE POLICY remove ON cml.memories FOR DELETE
		USING (pg_has_role(current_user, team, 'member') AND author = current_user);
	CREATE POLICY read ON cml.changes FOR SELECT USING (pg_has_role(current_user, team, 'member'));
	CREATE POLICY add ON cml.changes FOR INSERT
		WITH CHECK (pg_has_role(current_user, team, 'member') AND author = current_user);
	CREATE POLICY read ON cml.applied FOR SELECT
		USING (pg_has_role(current_user, team, 'member') AND author = current_user);
	CREATE POLICY add ON cml.applied FOR INSERT
		WITH CHECK (pg_has_role(current_user, team, 'member') AND author = current_user);`,
	// 2: the author's pin travels with the memory.
	`ALTER TABLE cml.memories ADD COLUMN pinned boolean NOT NULL DEFAULT false;`,
	// 3: changes are logged once per statement, from its transition table,
	// not once per row: a push writes thousands of memories in one
	// statement, and the row trigger (a lock call and an insert each) was
	// three quarters of the server's time. The lock and the order are as
	// before: taken before the changes get their sequence numbers, held to
	// the commit. A table names one event only, hence three triggers. It
	// can run again over itself (a server whose version was set back).
	`DROP TRIGGER IF EXISTS memories_log ON cml.memories;
	DROP FUNCTION IF EXISTS cml.log_change();
	DROP TRIGGER IF EXISTS memories_log_insert ON cml.memories;
	DROP TRIGGER IF EXISTS memories_log_update ON cml.memories;
	DROP TRIGGER IF EXISTS memories_log_delete ON cml.memories;
	CREATE OR REPLACE FUNCTION cml.log_changes() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		PERFORM pg_advisory_xact_lock(hashtext('cml.changes'), hashtext(team))
			FROM (SELECT DISTINCT team FROM changed ORDER BY team) t;
		INSERT INTO cml.changes (team, project, memory_id, op)
			SELECT team, project, id, CASE WHEN TG_OP = 'DELETE' THEN 'forget' ELSE 'put' END FROM changed;
		RETURN NULL;
	END $$;
	CREATE TRIGGER memories_log_insert AFTER INSERT ON cml.memories REFERENCING NEW TABLE AS changed
		FOR EACH STATEMENT EXECUTE FUNCTION cml.log_changes();
	CREATE TRIGGER memories_log_update AFTER UPDATE ON cml.memories REFERENCING NEW TABLE AS changed
		FOR EACH STATEMENT EXECUTE FUNCTION cml.log_changes();
	CREATE TRIGGER memories_log_delete AFTER DELETE ON cml.memories REFERENCING OLD TABLE AS changed
		FOR EACH STATEMENT EXECUTE FUNCTION cml.log_changes();`,
	// 4: only the triggers log changes. A member could insert changes by
	// hand: a forget of another member's memory made every teammate, its
	// author too, forget it locally, and a sequence number given far ahead
	// moved their cursors past every change to come. The log function runs
	// as its owner and logs the memory's author; so that no one calls it
	// from a trigger of their own (a temporary table's, whose rows say any
	// team and author), no role may execute it and it logs cml.memories
	// only (review 165). What a member may have logged by hand before goes:
	// a change dated 'infinity', and the sequence moves past the highest
	// number given.
	`CREATE OR REPLACE FUNCTION cml.log_changes() RETURNS trigger LANGUAGE plpgsql
		SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
	BEGIN
		IF TG_RELID <> 'cml.memories'::regclass THEN
			RAISE EXCEPTION 'cml.log_changes logs the changes of cml.memories only';
		END IF;
		PERFORM pg_advisory_xact_lock(hashtext('cml.changes'), hashtext(team))
			FROM (SELECT DISTINCT team FROM changed ORDER BY team) t;
		INSERT INTO cml.changes (team, project, memory_id, op, author)
			SELECT team, project, id, CASE WHEN TG_OP = 'DELETE' THEN 'forget' ELSE 'put' END, author FROM changed;
		RETURN NULL;
	END $$;
	REVOKE EXECUTE ON FUNCTION cml.log_changes() FROM PUBLIC;
	DROP POLICY IF EXISTS add ON cml.changes;
	DELETE FROM cml.changes WHERE NOT isfinite(at);
	SELECT setval(pg_get_serial_sequence('cml.changes', 'seq'), max(seq)) FROM cml.changes HAVING max(seq) IS NOT NULL;`,
}

// SchemaVersion is the server schema version this build writes and reads.
var SchemaVersion = len(migrations)

// Connect opens a connection: the URL's password, else the pgpass file or
// PGPASSWORD (pgx reads both), TLS as its sslmode says.
func Connect(ctx context.Context, rawURL string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(rawURL)
	if err != nil {
		return nil, fmt.Errorf("server URL: %w", err)
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 10 * time.Second
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", StripPassword(rawURL), err)
	}
	return conn, nil
}

// Init brings the server's schema to SchemaVersion and creates the team's
// role, granted what members need. It is idempotent; run it as a role that
// may create roles and tables.
func Init(ctx context.Context, conn *pgx.Conn, team string) error {
	if err := CheckName("team", team); err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		// One init at a time: concurrent inits wait rather than race.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('cml.init'))`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS cml;
			CREATE TABLE IF NOT EXISTS cml.schema_version (version int NOT NULL);
			INSERT INTO cml.schema_version SELECT 0 WHERE NOT EXISTS (SELECT FROM cml.schema_version)`); err != nil {
			return fmt.Errorf("schema: %w", err)
		}
		var v int
		if err := tx.QueryRow(ctx, `SELECT version FROM cml.schema_version`).Scan(&v); err != nil {
			return fmt.Errorf("schema version: %w", err)
		}
		if v > SchemaVersion {
			return fmt.Errorf("the server's schema is at version %d, newer than this build's %d: upgrade claude-memory-layer", v, SchemaVersion)
		}
		for ; v < SchemaVersion; v++ {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return fmt.Errorf("schema migration %d: %w", v+1, err)
			}
			if _, err := tx.Exec(ctx, `UPDATE cml.schema_version SET version = $1`, v+1); err != nil {
				return err
			}
		}
		var login bool
		err := tx.QueryRow(ctx, `SELECT rolcanlogin FROM pg_roles WHERE rolname = $1`, team).Scan(&login)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			if _, err := tx.Exec(ctx, `CREATE ROLE `+team+` NOLOGIN`); err != nil {
				return fmt.Errorf("create the team's role: %w", err)
			}
		case err != nil:
			return err
		case login:
			return fmt.Errorf("%q is a login role: a team is a role of its own that its members are granted", team)
		}
		_, err = tx.Exec(ctx, `GRANT USAGE ON SCHEMA cml TO `+team+`;
			GRANT SELECT ON cml.schema_version TO `+team+`;
			GRANT SELECT, INSERT, UPDATE, DELETE ON cml.memories TO `+team+`;
			GRANT SELECT ON cml.changes TO `+team+`;
			REVOKE INSERT ON cml.changes FROM `+team+`;
			GRANT SELECT, INSERT ON cml.applied TO `+team+`;
			GRANT USAGE ON ALL SEQUENCES IN SCHEMA cml TO `+team)
		if err != nil {
			return fmt.Errorf("grant the team's role: %w", err)
		}
		return nil
	})
}

// AddMember grants an existing login role membership of the team.
func AddMember(ctx context.Context, conn *pgx.Conn, team, role string) error {
	if err := CheckName("team", team); err != nil {
		return err
	}
	if err := CheckName("member", role); err != nil {
		return err
	}
	var login bool
	err := conn.QueryRow(ctx, `SELECT rolcanlogin FROM pg_roles WHERE rolname = $1`, role).Scan(&login)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("no role %q on the server: create it first (CREATE ROLE %s LOGIN PASSWORD '...')", role, role)
	}
	if err != nil {
		return err
	}
	if !login {
		return fmt.Errorf("%q cannot log in: a member is a login role", role)
	}
	if err := checkTeam(ctx, conn, team); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, `GRANT `+team+` TO `+role); err != nil {
		return fmt.Errorf("grant %s to %s: %w", team, role, err)
	}
	return nil
}

func checkTeam(ctx context.Context, conn *pgx.Conn, team string) error {
	var login bool
	err := conn.QueryRow(ctx, `SELECT rolcanlogin FROM pg_roles WHERE rolname = $1`, team).Scan(&login)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && login {
		return fmt.Errorf("the PostgreSQL server has no team %q; create it with team init --team %s", team, team)
	}
	return err
}

// ServerStatus is what Check finds on the server.
type ServerStatus struct {
	User          string `json:"user"`
	SchemaVersion int    `json:"schema_version"`
	Member        bool   `json:"member"`
	RowSecurity   bool   `json:"row_security"` // on for every shared table
	Memories      int64  `json:"memories"`     // the team's memories this role can read
}

// Check reads the server's state as the connected role sees it for team.
func Check(ctx context.Context, conn *pgx.Conn, team string) (ServerStatus, error) {
	var s ServerStatus
	if err := conn.QueryRow(ctx, `SELECT current_user`).Scan(&s.User); err != nil {
		return s, err
	}
	err := conn.QueryRow(ctx, `SELECT version FROM cml.schema_version`).Scan(&s.SchemaVersion)
	if err != nil {
		return s, fmt.Errorf("the server has no team schema (run team init): %w", err)
	}
	if err := conn.QueryRow(ctx, `SELECT count(*) = 3 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'cml' AND c.relname IN ('memories', 'changes', 'applied') AND c.relrowsecurity`).Scan(&s.RowSecurity); err != nil {
		return s, err
	}
	if err := checkTeam(ctx, conn, team); err != nil {
		return s, err
	}
	if err := conn.QueryRow(ctx, `SELECT pg_has_role(current_user, $1::text, 'member')`, team).Scan(&s.Member); err != nil {
		return s, err
	}
	if s.Member {
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM cml.memories WHERE team = $1`, team).Scan(&s.Memories); err != nil {
			return s, err
		}
	}
	return s, nil
}
