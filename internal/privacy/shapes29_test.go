package privacy

import (
	"strings"
	"testing"
)

// TestDollarPasswordAndSlashAWSSecret are issue 29's two secret shapes that
// reached the store: a database URL whose password starts with '$' (read as
// a shell variable) and an AWS secret access key that starts with '/'
// (read as a path) when quoted, in JSON, or with a second '/'. References
// stay: a URL naming $DB_PASSWORD, a key set from a path.
func TestDollarPasswordAndSlashAWSSecret(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, secret string }{
		{"postgres://app:$3cretPa55w0rd@db.internal:5432/orders", "$3cretPa55w0rd"},
		{"DATABASE_URL=postgresql://app:$Xk9pQ2mZ7@db/orders", "$Xk9pQ2mZ7"},
		{`aws_secret_access_key: "/k8Fz2Qw9Lp3Xc7Vb1Nm5Rt6Yu4Io0PaSdFgHjKl"`, "/k8Fz2Qw9Lp3Xc7Vb1Nm5Rt6Yu4Io0PaSdFgHjKl"},
		{`{"SecretAccessKey": "/k8Fz2Qw9Lp3Xc7Vb1Nm5Rt6Yu4Io0PaSdFgHjKl"}`, "/k8Fz2Qw9Lp3Xc7Vb1Nm5Rt6Yu4Io0PaSdFgHjKl"},
		{"AWS_SECRET_ACCESS_KEY=/k8Fz2Qw9/p3Xc7Vb1Nm5Rt6Yu4Io0PaSdFgHjKl", "/k8Fz2Qw9/p3Xc7Vb1Nm5Rt6Yu4Io0PaSdFgHjKl"},
		{"aws_secret_access_key = //8Fz2Qw9Lp3Xc7Vb1Nm5Rt6Yu4Io0PaSdFgHjKl", "//8Fz2Qw9Lp3Xc7Vb1Nm5Rt6Yu4Io0PaSdFgHjKl"},
	} {
		if got := Filter(tt.in); strings.Contains(got, tt.secret) {
			t.Errorf("Filter(%q) = %q keeps the secret", tt.in, got)
		}
	}
	for _, in := range []string{
		"postgres://app:$DB_PASSWORD@db/orders",
		"postgres://app:$db_password@db/orders",
		"aws_secret_access_key: /home/dev/.aws/secret",
	} {
		if got := Filter(in); got != in {
			t.Errorf("Filter(%q) = %q, want it unchanged", in, got)
		}
	}
}
