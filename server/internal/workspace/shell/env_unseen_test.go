//go:build !windows

package shell

import "testing"

// Issue 13's acceptance set for the scrub: credential variables written
// after the rules, by name shape and value shape, that the first table did
// not hold. Before the fix *_PW names and Stripe, Google, Hugging Face and
// JWT-shaped values under neutral names leaked.
var unseenDropped = map[string]string{
	"PGPASSWORD": "x", "VAULT_TOKEN": "hvs.x", "AZURE_CLIENT_SECRET": "x", "NODE_AUTH_TOKEN": "x", "CODECOV_TOKEN": "x",
	"TWILIO_AUTH_TOKEN": "x", "HEROKU_API_KEY": "x", "CLOUDFLARE_API_TOKEN": "x", "DD_APP_KEY": "x", "ARTIFACTORY_APIKEY": "x",
	"SIGNING_KEY": "x", "JWT_SIGNING_SECRET": "x", "CELERY_BROKER_URL": "redis://:pw@h:6379/0",
	"ELASTICSEARCH_URL": "https://elastic:pw@h:9200", "JDBC_URL": "jdbc:postgresql://h/db?user=a&password=b",
	"SQLALCHEMY_DATABASE_URI": "postgresql+psycopg2://u:p@h/db", "SERVICEBUS_CONN": "Endpoint=sb://x/;SharedAccessKeyName=a;SharedAccessKey=b",
	"GH_PAT_VALUE": "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "SLACK_BOT": "xoxb-1234567890-abcdefghij",
	"STRIPE": "sk_live_abcdefghijklmnop1234", "STRIPE_RESTRICTED": "rk_test_abcdefghijklmnop1234",
	"OPENAI": "sk-proj-abcdefghijklmnopqrstu", "LDAP_BIND_PW": "x", "DB_PASS": "x", "MAIL_PASSPHRASE": "x",
	"ENCRYPTION_KEY": "x", "X_API_KEY": "x", "PRIVATE_TOKEN": "x", "SOME_HEADER": "Authorization: Bearer abcdefghijklmnop",
	"HF_TOKEN": "hf_abcdefghijklmnopqrstuvwxyz", "HUB_VALUE": "hf_abcdefghijklmnopqrstuvwxyz0123456789",
	"ANTHROPIC_API_KEY": "sk-ant-x", "KAGGLE_KEY": "x", "CONSUL_HTTP_TOKEN": "x", "NOMAD_TOKEN": "x",
	"DIGITALOCEAN_ACCESS_TOKEN": "x", "FTP_URL": "ftp://u:pw@h/", "MQTT_URL": "mqtts://u:pw@h:8883",
	"GITHUB_APP_PRIVATE_KEY": "-----BEGIN RSA PRIVATE KEY-----", "SECRETS_JSON": "{}", "AWS_SECRET": "x",
	"RABBITMQ_DEFAULT_PASS": "x", "MINIO_ROOT_PASSWORD": "x", "POSTGRES_PASSWORD": "x", "CI_REGISTRY_PASSWORD": "x",
	"SNYK_TOKEN": "x", "DOCKER_PASS": "x", "K8S_BEARER": "Bearer abcdefghijklmnop",
	"MAPS": "AIzaSyA1234567890abcdefghijklmnopqrstuv", "ID_VALUE": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc",
	"MAILER": "SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789abcd",
}

// unseenKept come close to a rule but are no credential, and are
// allowlisted.
var unseenKept = map[string]string{
	"LC_MESSAGES": "C", "GOPRIVATE": "corp.example/*", "JAVA_HOME": "/opt/jdk", "PNPM_HOME": "/x", "TZ": "Europe/Paris",
}

func TestScrubUnseenNamesAndValues(t *testing.T) {
	checkScrub(t, unseenDropped, unseenKept)
}
