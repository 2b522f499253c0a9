# Generates secrets-heldout.jsonl: a labelled corpus of model-style outputs
# (code snippets, configuration files, chat answers) written after the
# secret detectors were finished and not used to tune them. Each line: the
# text, the secret kinds it holds (none for a hard negative) and a note.
# Token bodies are random in each provider's documented shape (the facts
# gitleaks' rules record), never a real credential; hard negatives are
# placeholders, documentation examples, hashes, UUIDs, base64 blobs,
# publishable keys and URLs without a password.
# Run: python3 gen_heldout.py > secrets-heldout.jsonl (in this folder).
import base64, json, random, string
R = random.Random(41)
LO, UP, DI = string.ascii_lowercase, string.ascii_uppercase, string.digits
AN = LO + UP + DI
HEX = "0123456789abcdef"
def r(n, a=AN): return "".join(R.choice(a) for _ in range(n))
def rm(n, a=AN):
    while True:
        s = r(n, a)
        if any(c.isdigit() for c in s) and any(c.isalpha() for c in s): return s
def b64u(b): return base64.urlsafe_b64encode(b).rstrip(b"=").decode()

rows = []
def add(text, kinds, note):
    rows.append({"text": text, "secrets": sorted(set(kinds)), "note": note})

# Contexts a model writes a credential in. {v} is the value.
CTX = [
    "Here is the config you asked for:\n\n```env\nAPP_ENV=production\n{n}={v}\nLOG_LEVEL=info\n```",
    "```python\nimport os\n\nclient = Client(api_key=\"{v}\")\nprint(client.status())\n```",
    "I found the problem: line 12 of deploy.sh hard-codes `{v}`. Move it to your secret store and rotate it.",
    "```yaml\nservices:\n  worker:\n    environment:\n      {n}: \"{v}\"\n```",
    "{{\n  \"name\": \"billing\",\n  \"credentials\": {{\n    \"{n}\": \"{v}\"\n  }}\n}}",
    "export {n}='{v}'\n./run-migrations.sh",
    "The log line shows: auth ok token={v} user=42",
    "```js\nconst client = new Api({{ token: '{v}' }});\n```",
]
NAMES = ["API_TOKEN", "ACCESS_TOKEN", "SERVICE_KEY", "CI_TOKEN", "AUTH"]
def pos(kind, vals, note, k=3):
    for v in vals[:k]:
        ctx = R.choice(CTX)
        add(ctx.format(v=v, n=R.choice(NAMES)), [kind], note)

def many(f, n=3): return [f() for _ in range(n)]
B32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
pos("aws_access_key_id", many(lambda: "AKIA" + rm(16, UP + "234567")), "aws key id")
pos("github_token", [ "ghp_" + rm(36), "gho_" + rm(36), "github_pat_" + rm(22) + "_" + rm(59)], "github token")
pos("sk_api_key", ["sk-proj-" + rm(64, AN + "_-") + "T3BlbkFJ" + rm(64, AN + "_-"), "sk-ant-api03-" + rm(93, AN + "_-") + "AA", "sk-" + rm(48)], "sk- key")
pos("slack_token", ["xoxb-" + r(12, DI) + "-" + r(13, DI) + "-" + rm(24), "xoxp-" + r(11, DI) + "-" + r(11, DI) + "-" + r(12, DI) + "-" + r(32, HEX), "xapp-1-A" + rm(10, UP + DI) + "-" + r(13, DI) + "-" + r(64, HEX)], "slack token")
pos("google_api_key", many(lambda: "AIza" + rm(35, AN + "_-")), "google key")
pos("stripe_key", ["sk_live_" + rm(24), "rk_live_" + rm(24), "sk_test_" + rm(99)], "stripe secret key")
pos("1password_token", ["A3-" + rm(6, UP + DI) + "-" + rm(11, UP + DI) + "-" + rm(5, UP + DI) + "-" + rm(5, UP + DI) + "-" + rm(5, UP + DI)], "1password secret key", 1)
pos("adobe_client_secret", many(lambda: "p8e-" + rm(32), 2), "adobe secret")
pos("age_secret_key", many(lambda: "AGE-SECRET-KEY-1" + r(58, B32), 2), "age key")
pos("airtable_token", many(lambda: "pat" + rm(14) + "." + r(64, HEX), 2), "airtable pat")
pos("alibaba_access_key_id", many(lambda: "LTAI" + rm(20), 2), "alibaba key id")
pos("artifactory_token", ["AKCp" + rm(69), "cmVmd" + rm(59)], "artifactory")
pos("aws_bedrock_api_key", ["ABSK" + rm(132, AN + "+/"), "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t" + rm(120, AN + "+/") + "%3D"], "bedrock key")
pos("azure_ad_client_secret", many(lambda: rm(3) + R.choice(DI) + "Q~" + rm(34, AN + "_.~-"), 2), "azure client secret")
pos("clickhouse_secret_key", ["4b1d" + rm(38)], "clickhouse", 1)
pos("clojars_token", ["CLOJARS_" + rm(60, LO + DI)], "clojars", 1)
pos("cloudflare_origin_ca_key", ["v1.0-" + r(24, HEX) + "-" + r(146, HEX)], "cloudflare origin ca", 1)
pos("databricks_token", many(lambda: "dapi" + r(32, HEX), 2), "databricks")
pos("digitalocean_token", ["dop_v1_" + r(64, HEX), "doo_v1_" + r(64, HEX)], "digitalocean")
pos("doppler_token", ["dp.pt." + rm(43)], "doppler", 1)
pos("duffel_token", ["duffel_live_" + rm(43, AN + "_-")], "duffel", 1)
pos("dynatrace_token", ["dt0c01." + rm(24, UP + DI) + "." + rm(64, UP + DI)], "dynatrace", 1)
pos("easypost_token", ["EZAK" + rm(54), "EZTK" + rm(54)], "easypost")
pos("facebook_access_token", ["EAAC" + rm(160)], "facebook page token", 1)
pos("flyio_token", ["fo1_" + rm(43, AN + "_-"), "fm2_" + rm(180, AN + "+/") + "=="], "fly.io")
pos("frameio_token", ["fio-u-" + rm(64, AN + "_-")], "frame.io", 1)
pos("gitlab_token", ["glpat-" + rm(20, AN + "_-"), "glrt-" + rm(20), "gldt-" + rm(20), "glpat-" + rm(27) + "." + r(2, LO + DI) + r(7, LO + DI)], "gitlab", 4)
pos("grafana_token", ["glsa_" + rm(32) + "_" + r(8, HEX), "glc_" + rm(60)], "grafana")
pos("harness_api_key", ["pat." + rm(22) + "." + rm(24) + "." + rm(20)], "harness", 1)
pos("terraform_cloud_token", [rm(14) + ".atlasv1." + rm(64, AN + "_-")], "terraform cloud", 1)
pos("heroku_api_key", ["HRKU-AA" + rm(58, AN + "_-")], "heroku v2", 1)
pos("huggingface_token", many(lambda: "hf_" + r(34, LO + UP), 3), "hugging face")
pos("infracost_token", ["ico-" + rm(32)], "infracost", 1)
pos("intra42_client_secret", ["s-s4t2ud-" + r(64, HEX)], "42 intra", 1)
pos("linear_api_key", ["lin_api_" + rm(40)], "linear", 1)
pos("maxmind_license_key", [rm(6) + "_" + rm(29) + "_mmk"], "maxmind", 1)
pos("teams_webhook", ["https://contoso.webhook.office.com/webhookb2/" + "-".join(r(n, LO + DI) for n in (8, 4, 4, 4, 12)) + "@" + "-".join(r(n, LO + DI) for n in (8, 4, 4, 4, 12)) + "/IncomingWebhook/" + r(32, LO + DI) + "/" + "-".join(r(n, LO + DI) for n in (8, 4, 4, 4, 12))], "teams webhook", 1)
pos("new_relic_key", ["NRAK-" + rm(27, UP + DI), "NRII-" + rm(32, AN + "-")], "new relic")
pos("notion_token", ["ntn_" + r(11, DI) + rm(35)], "notion", 1)
pos("npm_token", many(lambda: "npm_" + rm(36), 3), "npm")
pos("octopus_deploy_key", ["API-" + rm(26, UP + DI)], "octopus", 1)
pos("openshift_token", ["sha256~" + rm(43, AN + "_-")], "openshift", 1)
pos("perplexity_api_key", ["pplx-" + rm(48)], "perplexity", 1)
pos("planetscale_token", ["pscale_tkn_" + rm(43), "pscale_pw_" + rm(43)], "planetscale")
pos("postman_token", ["PMAK-" + r(24, HEX) + "-" + r(34, HEX)], "postman", 1)
pos("prefect_token", ["pnu_" + rm(36)], "prefect", 1)
pos("pulumi_token", ["pul-" + r(40, HEX)], "pulumi", 1)
pos("pypi_token", ["pypi-AgEIcHlwaS5vcmc" + rm(150, AN + "_-")], "pypi", 1)
pos("readme_token", ["rdme_" + rm(70, LO + DI)], "readme", 1)
pos("rubygems_token", ["rubygems_" + r(48, HEX)], "rubygems", 1)
pos("scalingo_token", ["tk-us-" + rm(48, AN + "_-")], "scalingo", 1)
pos("sendgrid_api_key", many(lambda: "SG." + rm(22, AN + "_-") + "." + rm(43, AN + "_-"), 2), "sendgrid")
pos("sendinblue_api_key", ["xkeysib-" + r(64, HEX) + "-" + rm(16)], "brevo", 1)
pos("sentry_token", ["sntryu_" + r(64, HEX)], "sentry", 1)
pos("settlemint_token", ["sm_pat_" + rm(16), "sm_aat_" + rm(16)], "settlemint")
pos("shippo_token", ["shippo_live_" + r(40, HEX)], "shippo", 1)
pos("shopify_token", ["shpat_" + r(32, HEX), "shpss_" + r(32, HEX)], "shopify")
pos("square_token", ["EAAA" + rm(60, AN + "_-"), "sq0atp-" + rm(22, AN + "_-")], "square")
pos("telegram_bot_token", many(lambda: r(10, DI) + ":AA" + rm(33, AN + "_-"), 2), "telegram")
pos("twilio_api_key", many(lambda: "SK" + r(32, HEX), 2), "twilio")
pos("typeform_token", ["tfp_" + rm(59, AN + "_-")], "typeform", 1)
pos("vault_token", ["hvs." + rm(95, AN + "_-"), "hvb." + rm(150, AN + "_-")], "vault")
pos("slack_webhook", ["https://hooks.slack.com/services/T" + rm(8, UP + DI) + "/B" + rm(10, UP + DI) + "/" + rm(24), "https://hooks.slack.com/workflows/T" + rm(8, UP + DI) + "/A" + rm(10, UP + DI) + "/" + r(18, DI) + "/" + rm(24)], "slack webhook")

# Private keys: plain and escaped in JSON.
def pem(kind):
    body = "\n".join(rm(64, AN + "+/") for _ in range(8))
    return f"-----BEGIN {kind}PRIVATE KEY-----\n{body}\n{rm(30, AN + '+/')}==\n-----END {kind}PRIVATE KEY-----"
add("Save this as key.pem:\n\n```\n" + pem("RSA ") + "\n```", ["private_key"], "rsa pem")
add("```\n" + pem("EC ") + "\n```", ["private_key"], "ec pem")
add(pem("OPENSSH "), ["private_key"], "openssh pem")
add(json.dumps({"type": "service_account", "project_id": "billing-prod", "private_key_id": r(40, HEX), "private_key": pem("") + "\n", "client_email": "svc@billing-prod.iam.gserviceaccount.com"}, indent=2), ["private_key"], "service account json, escaped pem")

# JWTs.
def jwt():
    h = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    p = b64u(json.dumps({"sub": str(R.randint(1000, 99999)), "name": "Dana", "iat": R.randint(1600000000, 1700000000)}).encode())
    return h + "." + p + "." + rm(43, AN + "_-")
add("curl -H \"Authorization: Bearer " + jwt() + "\" https://api.internal/v1/me", ["jwt"], "jwt in curl")
add("The token in localStorage is `" + jwt() + "`; it expires in an hour.", ["jwt"], "jwt in prose")
add("{\"session\": \"" + jwt() + "\"}", ["jwt"], "jwt in json")

# Passwords in connection URLs.
add("DATABASE_URL=postgres://orders:" + rm(14) + "@db.prod.internal:5432/orders", ["connection_string_password"], "postgres url")
add("```python\nengine = create_engine(\"mysql+pymysql://app:" + rm(12) + "@10.0.3.7/shop\")\n```", ["connection_string_password"], "mysql url")
add("client = MongoClient(\"mongodb+srv://analytics:" + rm(16) + "@cluster0.x1y2z.mongodb.net/?retryWrites=true\")", ["connection_string_password"], "mongodb+srv url")
add("REDIS_URL=redis://:" + rm(20) + "@cache.internal:6379/0", ["connection_string_password"], "redis url")
add("broker_url = 'amqp://celery:" + rm(12) + "@rabbit:5672//'", ["connection_string_password"], "amqp url")
add("git remote set-url origin https://deploy:" + rm(18) + "@git.example.org/team/app.git", ["connection_string_password"], "https basic auth")

# Generic assignments.
for v in [rm(16, AN + "!#%"), rm(24), rm(32, HEX + UP)]:
    add(R.choice(["db_password = \"{v}\"", "SECRET_KEY: '{v}'", "client_secret={v}", "\"apiKey\": \"{v}\""]).format(v=v), ["secret_assignment"], "assignment")

# Hard negatives.
NEG = [
    ("AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws docs example"),
    ("OPENAI_API_KEY=sk-your-api-key-here", "sk placeholder"),
    ("Set `GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx` in your shell.", "github placeholder"),
    ("token: glpat-XXXXXXXXXXXXXXXXXXXX", "gitlab placeholder"),
    ("NPM_TOKEN=${NPM_TOKEN}", "env reference"),
    ("const stripe = Stripe('pk_live_" + rm(24) + "');", "stripe publishable"),
    ("Publishable key: pk_test_" + rm(24), "stripe publishable test"),
    ("DATABASE_URL=postgres://user:password@localhost:5432/mydb", "stand-in password"),
    ("DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app", "password reference"),
    ("mysql://root:****@127.0.0.1/app", "masked password"),
    ("See https://docs.python.org/3/library/urllib.parse.html#url-parsing for details.", "plain url"),
    ("commit " + r(40, HEX) + " fixed the race", "git sha"),
    ("sha256: " + r(64, HEX), "sha256"),
    ("request id " + "-".join(r(n, HEX) for n in (8, 4, 4, 4, 12)), "uuid"),
    ("data:image/png;base64," + base64.b64encode(bytes(R.randrange(256) for _ in range(120))).decode(), "base64 blob"),
    ("The icon lives at /static/video_box.ico-" + r(32, HEX) + ".png", "file name with ico-"),
    ("Order SKU SK" + r(6, DI) + " ships Monday.", "sku code"),
    ("Meeting at 10:AM? No: 10:30 AM, room API-B.", "time and room"),
    ("Use `hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx` as a placeholder for your Hugging Face token.", "hf placeholder"),
    ("-----BEGIN PRIVATE KEY-----\n...your key here...\n-----END PRIVATE KEY-----", "pem placeholder"),
    ("-----BEGIN PUBLIC KEY-----\n" + "\n".join(rm(64, AN + "+/") for _ in range(4)) + "\n-----END PUBLIC KEY-----", "public key"),
    ("export SLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXXXXXXXX/XXXXXXXXX/XXXXXXXXXXXXXXXXXXXXXXXX", "slack webhook placeholder"),
    ("xoxb-your-bot-token", "slack placeholder"),
    ("The password must be at least 12 characters long.", "prose about passwords"),
    ("password = os.environ[\"DB_PASSWORD\"]", "password from env"),
    ("api_key = settings.OPENAI_API_KEY", "key from settings"),
    ("max_tokens = 4096\ntemperature = 0.2", "token count"),
    ("The Base64 of 'hello world' is aGVsbG8gd29ybGQ=.", "small base64"),
    ("Version v1.0-beta of the SDK added retries.", "version string"),
    ("Install with `pip install pulumi` and run `pulumi up`.", "tool names"),
    ("TWILIO_ACCOUNT_SID=AC" + "x" * 32, "twilio placeholder"),
    ("Use a key like sk_live_xxxxxxxxxxxxxxxxxxxxxxxx in production.", "stripe placeholder"),
    ("Replace <YOUR_API_KEY> with the key from the dashboard.", "angle placeholder"),
    ("AIzaSyXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "google placeholder"),
    ("The JWT header eyJhbGciOiJIUzI1NiJ9 decodes to {\"alg\":\"HS256\"}.", "jwt header only"),
    ("mongodb://localhost:27017/test", "mongo url without credentials"),
    ("redis://cache:6379/0", "redis url without credentials"),
    ("| id | value |\n|---|---|\n| 1 | " + r(24, HEX) + " |", "hex id in a table"),
    ("Bitcoin address 1BoatSLRHtKNngkdXEeobR76b53LETtpyT in the docs.", "bitcoin address"),
    ("ISBN 978-3-16-148410-0, DOI 10.1000/182", "isbn doi"),
    ("Example: `npm_" + "a" * 36 + "`", "npm repeated placeholder"),
    ("shpat_00000000000000000000000000000000", "shopify zero placeholder"),
    ("Set DOPPLER_TOKEN=dp.pt.example to test.", "doppler example"),
    ("ghp_1234567890abcdefghijklmnopqrstuvwxyz", "github sequence placeholder"),
]
for t, n in NEG:
    add(t, [], n)
R.shuffle(rows)
for row in rows:
    print(json.dumps(row))
