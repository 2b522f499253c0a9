# Generates corpus.jsonl, the labelled disclosure corpus read by
# disclosure_corpus_test.go: one JSON object per line with the text, the PII
# kinds and the secret detectors it holds (both empty for a hard negative),
# and a note. Every secret is invented from a seeded generator (no real key
# of anyone's); card numbers are the issuers' published test numbers and
# IBANs the SWIFT registry's examples. Run: python3 gen.py (in this folder).
import json, random, base64, string
R = random.Random(20261129)
A = string.ascii_letters + string.digits
def rnd(n, alpha=A): 
    while True:
        s = ''.join(R.choice(alpha) for _ in range(n))
        if any(c.isdigit() for c in s) and any(c.isalpha() for c in s): return s
U = string.ascii_uppercase + string.digits
B64 = A + '+/'
rows = []
def add(text, pii=(), secrets=(), note=""):
    rows.append({"text": text, "pii": list(pii), "secrets": list(secrets), "note": note})

def luhn_ok(d):
    s=0
    for i,c in enumerate(reversed(d)):
        v=int(c)
        if i%2==1:
            v*=2
            if v>9: v-=9
        s+=v
    return s%10==0
def iban_ok(s):
    s=s.replace(' ','')
    t=s[4:]+s[:4]
    n=int(''.join(str(int(c,36)) for c in t))
    return n%97==1

# ---- email positives
for t in ["Please contact john.doe@acme-corp.com for the refund.",
          "Send the invoice to billing+eu@northwind-traders.co.uk today.",
          "My address is maria_garcia84@correo.es, reply there.",
          "CC: a.nguyen@globex.io; b.okafor@initech.net",
          "Reach the on-call engineer at oncall@ops.contoso-cloud.com.",
          "Email: ZHANG.WEI@HOTMAIL.COM",
          "<li>priya.r@university.edu.in</li>",
          "\"email\": \"k.mueller@firma-beispiel.de\"",
          "Forwarded from: Zoë Hartmann <zoe.hartmann@mailbox.org>",
          "Her username is lena and her mail is lena.schmidt1990@gmx.net.",
          "You can write to support@fabrikam.shop or call us.",
          "The user (id 44) registered with tom-o.brien@wanadoo.fr yesterday.",
         ]:
    add(t, ["email"], note="email address")
# ---- phone positives
for t in ["Call me at (415) 555-0132 after five.",
          "Office: 212-555-0187, ext. 12",
          "Text 650.555.0199 for the code.",
          "Customer phone: +1 312 555 0143",
          "You can reach the London desk on +44 20 7946 0958.",
          "Berlin office +49 30 901820 is open on weekdays.",
          "Numéro: +33 1 42 68 53 00",
          "Tokyo support: +81-3-1234-5678",
          "WhatsApp +919876543210 anytime",
          "Her mobile is +61 412 345 678.",
          "Toll free 1-800-555-0175 (US only)",
          "Dial +1 (646) 555-0111 to confirm the booking.",
          "Contact: +34 912 345 678",
          "phone=+14155550123",
         ]:
    add(t, ["phone"], note="phone number")
# ---- ssn positives
for t in ["Applicant SSN: 219-09-9999",
          "Social security number 078-05-1120 was on the form.",
          "SSN 536 22 8417 (spaces)",
          "The employee record lists 401-72-3310 as the SSN.",
          "ssn: 665-12-7788",
          "Taxpayer ID 323-45-6781 appears in box 3.",
          "My SSN is 772-19-0045, please keep it private.",
          "Records: [387-04-2261]",
          "SSN=238-50-9174",
          "Beneficiary: Jane Roe, 514-60-3327",
         ]:
    add(t, ["ssn"], note="ssn in a valid range")
# ---- credit card positives
for t in ["Card number: 4111 1111 1111 1111, exp 12/29",
          "Charge it to 5555-5555-5555-4444 please.",
          "Amex 3782 822463 10005 on file.",
          "Paid with 6011111111111117 yesterday.",
          "Visa 4012888888881881 was declined.",
          "JCB card 3530 1113 3330 0000",
          "Diners 3056 9309 0259 04 is expired.",
          "Mastercard 2-series 2221 0000 0000 0009 accepted.",
          "Use 5105105105105100 for the test.",
          "The old card 4222222222222 (13 digits) still works.",
          "Discover 6011 0009 9013 9424 charged $20.",
          "American Express 371449635398431 ends in 8431.",
          "UnionPay 6200 0000 0000 0005 card",
          "card=4000056655665556&cvc=123",
         ]:
    add(t, ["credit_card"], note="Luhn-valid issuer number")
# ---- iban positives
for t in ["Transfer to GB82 WEST 1234 5698 7654 32 by Friday.",
          "IBAN: DE89370400440532013000",
          "Compte FR14 2004 1010 0505 0001 3M02 606",
          "Please pay into NL91ABNA0417164300.",
          "ES91 2100 0418 4502 0005 1332 is the account.",
          "IT60X0542811101000000123456 (Italy)",
          "Swiss account CH93 0076 2011 6238 5295 7",
          "BE68 5390 0754 7034",
          "Norway: NO93 8601 1117 947.",
          "Polish IBAN PL61 1090 1014 0000 0712 1981 2874",
          "AT611904300234573201 Vienna branch",
          "SE45 5000 0000 0583 9825 7466",
         ]:
    add(t, ["iban"], note="checksum-valid IBAN")
# ---- ip positives
for t in ["The request came from 203.0.113.45 at noon.",
          "ssh admin@10.0.0.5 -p 22",
          "Resolver 8.8.8.8 answered.",
          "Client IP: 192.168.1.20, port 443",
          "Bind to 0.0.0.0:8080 for all interfaces.",
          "IPv6 2001:db8::1 is assigned.",
          "link-local fe80::1ff:fe23:4567:890a on eth0",
          "Mapped address ::ffff:192.0.2.128 seen in logs.",
          "Full form 2001:0db8:85a3:0000:0000:8a2e:0370:7334.",
          "localhost is ::1 and 127.0.0.1",
          "Blocked [2606:4700:4700::1111]:53 by the firewall.",
          "x-forwarded-for: 198.51.100.7, 172.16.4.9",
         ]:
    pii = ["ip"]
    if "admin@10" in t: pass
    add(t, pii, note="ip address")
# ---- mixed
add("Name: Jane Roe, email jane.roe@contoso.com, phone (202) 555-0156, SSN 412-55-1290.", ["email","phone","ssn"], note="several kinds")
add("Refund card 4111-1111-1111-1111 and IBAN GB82WEST12345698765432 for j.smith@fabrikam.com", ["credit_card","iban","email"], note="several kinds")
add("Login from 198.51.100.23 by m.rossi@posteitaliane.it", ["ip","email"], note="ip and email")

# ---- PII hard negatives
for t in ["Upgrade to version 1.2.3 before Friday.",
          "Windows build 10.0.19041.1 is installed.",
          "The OID 1.2.3.4.5 identifies the policy.",
          "999.1.1.1 is not an address.",
          "256.100.50.25 has an octet over 255.",
          "The meeting is at 12:30:45 UTC.",
          "Use std::vector<int> and Foo::Bar::baz here.",
          "MAC address 00:1A:2B:3C:4D:5E on the switch.",
          "Released on 2024-03-15, patched 2024-04-02.",
          "Dates: 15/03/2024 and 03.15.2024",
          "Order #1234567890123456 has shipped.",
          "Card 4111 1111 1111 1112 fails the Luhn check.",
          "Reference 1234 5678 9012 3456 is an internal id.",
          "SSN 000-12-3456 is invalid (area 000).",
          "Invalid SSN 666-45-6789 (area 666).",
          "912-34-5678 uses an ITIN-style 9xx area.",
          "123-00-4567 has group 00.",
          "123-45-0000 has serial 0000.",
          "ISBN 978-0-306-40615-7 is the book.",
          "ZIP code 94105-1234 in San Francisco.",
          "Press extension 4567 at the menu.",
          "user@localhost is the default sender.",
          "Ping @channel about the outage.",
          "Write to john dot doe at gmail dot com.",
          "Retina asset icon@2x.png is missing.",
          "GB83 WEST 1234 5698 7654 32 has a bad checksum.",
          "DE00370400440532013000 fails mod 97.",
          "XX82WEST12345698765432 is not a country.",
          "World population reached 8123456789 people.",
          "Ticket ID 4155550123 was closed.",
          "Pi is 3.14159265358979 to 15 places.",
          "Unix time 1700000000 is in November 2023.",
          "Aspect ratio 16:9 and 4:3.",
          "Coordinates 37.7749, -122.4194",
          "Invoice INV-2024-000123-4567 is paid.",
          "Part number ABC-123-45-6789 is discontinued.",
          "The score went from +12.5 to +13.75 points.",
          "Temperatures: -40, +35, +1.5 degrees.",
          "SKU 5012345678900 barcode (EAN-13).",
          "Hash 4f2a9c1b7e3d5a60 in the log.",
          "Semantic versions: v2.10.3, v2.10.4-rc.1",
          "Chapter 3.2.1.4 covers subnets.",
          "Room 101-202 is on the second floor.",
          "The range 1..10 and 10.0..20.5",
          "A dedicated a:b:c label in YAML.",
          "Matrix 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6",
          "Phone numbers are not in this sentence at all.",
          "Elapsed 00:01:23.456 per request.",
          "Call +1.2.3 in the release notes.",
          "Timestamp 2024-03-15T12:30:45Z recorded.",
         ]:
    add(t, note="hard negative")

# ---- secrets positives
def aws(pfx): 
    while True:
        s = pfx + ''.join(R.choice(U) for _ in range(16))
        if 'EXAMPLE' not in s: return s
for t in [f"aws_access_key_id = {aws('AKIA')}",
          f"Found key {aws('AKIA')} in the repo.",
          f"export AWS_ACCESS_KEY_ID={aws('ASIA')}",
          f"\"AccessKeyId\": \"{aws('ASIA')}\"",
          f"{aws('AKIA')}"]:
    add(t, secrets=["aws_access_key_id"], note="aws key id")
for t in [f"token: ghp_{rnd(36)}",
          f"git clone https://gho_{rnd(36)}@github.com/acme/app",
          f"GITHUB_TOKEN=ghs_{rnd(36)}",
          f"Use github_pat_{rnd(22)}_{rnd(59)} for the CI.",
          f"refresh ghr_{rnd(36)} expired",
          f"ghu_{rnd(36)}"]:
    add(t, secrets=["github_token"], note="github token")
SKA = A + '-_'
for t in [f"OPENAI_API_KEY=sk-{rnd(48)}",
          f"client = OpenAI(api_key=\"sk-proj-{rnd(64, SKA)}\")",
          f"x-api-key: sk-ant-api03-{rnd(93, SKA)}AA",
          f"The key sk-{rnd(32)} leaked.",
          f"sk-svcacct-{rnd(56, SKA)}",
          f"Authorization: Bearer sk-proj-{rnd(40)}"]:
    add(t, secrets=["sk_api_key"], note="sk- key")
def digits(n): return ''.join(R.choice(string.digits) for _ in range(n))
for t in [f"SLACK_BOT_TOKEN=xoxb-{digits(12)}-{digits(13)}-{rnd(24)}",
          f"user token xoxp-{digits(11)}-{digits(12)}-{digits(13)}-{rnd(32, string.hexdigits.lower())}",
          f"\"token\": \"xoxa-2-{digits(12)}-{rnd(30)}\"",
          f"xoxs-{digits(10)}-{rnd(20)} appears in the log",
          f"legacy xoxr-{digits(12)}-{rnd(24)}"]:
    add(t, secrets=["slack_token"], note="slack token")
GA = A + '-_'
for t in [f"GOOGLE_API_KEY=AIza{rnd(35, GA)}",
          f"https://maps.googleapis.com/maps/api/js?key=AIza{rnd(35, GA)}",
          f"\"apiKey\": \"AIza{rnd(35, GA)}\",",
          f"key AIza{rnd(35, GA)} restricted to Android",
          f"AIza{rnd(35, GA)}"]:
    add(t, secrets=["google_api_key"], note="google api key")
for t in [f"STRIPE_SECRET_KEY=sk_live_{rnd(24)}",
          f"stripe.api_key = \"rk_live_{rnd(32)}\"",
          f"publishable pk_live_{rnd(24)} in the page",
          f"Test mode uses sk_test_{rnd(24)}.",
          f"sk_live_{rnd(99)}"]:
    if t.startswith("publishable"):
        # Publishable keys are meant for browsers: not a secret.
        add(t, note="stripe publishable key (not a secret)")
        continue
    add(t, secrets=["stripe_key"], note="stripe key")
def pemblock(kind, lines=6, headers=""):
    body = '\n'.join(rnd(64, B64) for _ in range(lines)) + '\n' + rnd(20, B64) + '=='
    return f"-----BEGIN {kind}PRIVATE KEY-----\n{headers}{body}\n-----END {kind}PRIVATE KEY-----"
for t in [f"Here is the key:\n{pemblock('RSA ')}\nKeep it safe.",
          pemblock(''),
          f"```\n{pemblock('EC ', 3)}\n```",
          f"id_ed25519:\n{pemblock('OPENSSH ', 5)}",
          pemblock('ENCRYPTED ', 8),
          pemblock('RSA ', 10, "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,"+rnd(32, "0123456789ABCDEF")+"\n\n"),
          f"-----BEGIN PRIVATE KEY-----\n{rnd(64,B64)}\n{rnd(64,B64)}\n(truncated)"]:
    add(t, secrets=["private_key"], note="pem private key")
def b64u(obj):
    return base64.urlsafe_b64encode(json.dumps(obj, separators=(',',':')).encode()).decode().rstrip('=')
def jwt(alg="HS256", payload=None):
    h = b64u({"alg": alg, "typ": "JWT"})
    p = b64u(payload or {"sub": digits(10), "name": R.choice(["Ada Park","Luis Ortega","Mei Chen"]), "iat": 1700000000 + R.randint(0, 10**6)})
    sig = rnd(43, A + '-_') if alg != 'none' else ''
    return f"{h}.{p}.{sig}"
for t in [f"Authorization: Bearer {jwt()}",
          f"id_token={jwt('RS256')}",
          f"Cookie: session={jwt('HS512')}; Path=/",
          f"\"access_token\": \"{jwt('ES256', {'scope':'read write','exp':1800000000})}\"",
          f"unsigned {jwt('none')} token",
          f"{jwt()}"]:
    add(t, secrets=["jwt"], note="jwt")
def pw(n=14): 
    return rnd(n, A + '!#%^&*-_+=')
for t in [f"password = \"{pw()}\"",
          f"DB_PASSWORD={pw(18)}",
          f"\"client_secret\": \"{rnd(40)}\"",
          f"api_key: {rnd(32)}",
          f"AWS_SECRET_ACCESS_KEY={rnd(40, A+'/+')}",
          f"export AUTH_TOKEN='{rnd(28)}'",
          f"config.secret_key := \"{rnd(24)}\"",
          f"mysql -u root --password={pw(16)}",
          f"<add key=\"ApiKey\" value=\"{rnd(30)}\" />",
          f"SECRET={rnd(16)}"]:
    add(t, secrets=["secret_assignment"], note="high-entropy assignment")

# ---- secrets hard negatives
for t in ["AWS docs use AKIAIOSFODNN7EXAMPLE as the sample key id.",
          "aws_access_key_id = AKIAXXXXXXXXXXXXXXXX",
          "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
          "Set your key: sk-your-api-key-here",
          "OPENAI_API_KEY=<YOUR_API_KEY>",
          "api_key: ${API_KEY}",
          "token = os.getenv('GITHUB_TOKEN')",
          "password: ********",
          "password = changeme",
          "secret: true",
          "max_tokens = 4096",
          "tokenizer = AutoTokenizer.from_pretrained('bert-base-uncased')",
          "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
          "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
          f"-----BEGIN PUBLIC KEY-----\n{rnd(64,B64)}\n{rnd(40,B64)}\n-----END PUBLIC KEY-----",
          f"-----BEGIN CERTIFICATE-----\n{rnd(64,B64)}\n{rnd(64,B64)}\n-----END CERTIFICATE-----",
          "The task-force-2024-planning-meeting-notes are attached.",
          "See risk-assessment-matrix-v2-final-review-2024 for details.",
          "xoxo-hugs-and-kisses-from-grandma",
          "token_type: Bearer",
          "TOKEN_EXPIRY_SECONDS=3600",
          "password_min_length = 12",
          "api_key = settings.OPENAI_API_KEY",
          "password: process.env.DB_PASSWORD",
          "secret_key_base: <%= ENV['SECRET_KEY_BASE'] %>",
          "auth_token={{ secrets.AUTH_TOKEN }}",
          "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed it",
          "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
          "STRIPE_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
          "GOOGLE_API_KEY=AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
          "The header eyJhbGciOiJIUzI1NiJ9 alone is not a token.",
          "a.b.c and x.y.z are dotted names",
          "password = hunter2",
          "Use a strong password: at least 12 characters.",
          "The secret to good bread is time.",
          "token: <token>",
          "API_KEY=your_api_key_here",
          "SLACK_TOKEN=xoxb-your-token",
          "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
          "sk-learn-compatible-estimators-and-pipelines",
          "passwd: /etc/passwd is world-readable",
          "Set PASSWORD_HASH_ROUNDS=10 in the config.",
          "The function get_api_key(user_id) returns the key.",
          "jwt: eyJhbGciOiJIUzI1NiJ9.e30.",
          "Bearer token: REDACTED",
          "client_secret: '****************'",
         ]:
    add(t, note="secret hard negative")


# ---- later additions, written before running the detectors on them
add("Mail me: first.last+tag@sub.domain.co.nz thanks", ["email"], note="email with tag")
add("The gateway is 172.31.255.254.", ["ip"], note="ip at sentence end")
add("Support line (800) 555-0100.", ["phone"], note="phone at sentence end")
add("Call +1-202-555-0173 now", ["phone"], note="dashed +1 phone")
add("Ship to card holder, card 5555 5555 5555 4444.", ["credit_card"], note="card at sentence end")
add("Build 2.0.0.1 released today.", note="hard negative: build number")
add("Python 3.12.1 and Go 1.26.0 are required.", note="hard negative: versions")
add("London is at 51.5074 N, 0.1278 W.", note="hard negative: coordinates")
add("p99 latency = 123.45ms over 10,000,000 requests", note="hard negative: numbers")
add("Serial 12-3456789-0 on the label", note="hard negative: serial")
add("token_count: 1532", note="secret hard negative")
add("The API key rotation policy is 90 days.", note="secret hard negative")
add("client_id = 1234567890-abc.apps.googleusercontent.com", note="secret hard negative: public client id")
add("secret_word: pineapple", note="secret hard negative: low entropy word")
add("password_reset_token_ttl=15m", note="secret hard negative")
add(f"api_token = \"{rnd(26)}\"", secrets=["secret_assignment"], note="assignment")
add(f"Found sk-ant-api03-{rnd(80, SKA)} in a notebook", secrets=["sk_api_key"], note="anthropic key")
add(f"Two keys: {aws('AKIA')} and ghp_{rnd(36)}", secrets=["aws_access_key_id", "github_token"], note="two secrets")

# ---- second blind batch
add("Contact: maria.silva@empresa.com.br / +55 11 91234-5678", ["email", "phone"], note="Brazilian phone with dash")
add("Phone: 800.555.0199 (toll free)", ["phone"], note="dotted NANP")
add("Fax +1 (212) 555-0148, attn. legal", ["phone"], note="fax with +1 and parentheses")
add("Deposit to IE29 AIBK 9311 5212 3456 78 today", ["iban"], note="Irish IBAN")
add("The DNS server at 1.1.1.1 and 9.9.9.9 responded", ["ip"], note="two IPv4")
add("Host fe80::a00:27ff:fe4e:66a1 is on the LAN.", ["ip"], note="link-local IPv6")
add("SSN: 078-05-1120; DOB 1985-07-14", ["ssn"], note="SSN with a date beside it")
add("Amex 3714-496353-98431 on file", ["credit_card"], note="amex 4-6-5 dashed")
add("Backup MC 5425 2334 3010 9903", ["credit_card"], note="Mastercard test number")
add("Listen on :8080 and /healthz", note="port only")
add("The patch 2.6.32.71 fixed it", note="hard negative: kernel version with two-digit part")
add("Meeting ID 845 2931 0046 (Zoom)", note="hard negative: meeting id")
add("Invoice total 1,234,567.89 EUR", note="hard negative: money")
add("Model gpt-4o-2024-08-06 answered", note="hard negative: model name with date")
add("call me maybe at 5 pm", note="hard negative: no number")
add(f"export GH_TOKEN=ghp_{rnd(36)}", secrets=["github_token"], note="github token in export")
add(f"AWS creds: {aws('ASIA')} / {rnd(40, A+'/+')}", secrets=["aws_access_key_id"], note="aws key id pair without a name")
add(f"headers = {{'Authorization': 'Bearer {jwt('RS256')}'}}", secrets=["jwt"], note="jwt in a dict")
add(f"sk-proj-{rnd(20)} is the first 28 chars", secrets=["sk_api_key"], note="short project key")
add("OPENAI_API_KEY=sk-proj-...", note="secret hard negative: elided")
add("Your token is: [REDACTED]", note="secret hard negative")
add("Set api_key to the value shown in the dashboard.", note="secret hard negative")
add("password: correct horse battery staple", note="secret hard negative: passphrase with spaces (not high-entropy token)")
add("uuid = 550e8400-e29b-41d4-a716-446655440000", note="secret hard negative: uuid under a non-secret name")
add(f"DATABASE_PASSWORD: \"{pw(20)}\"", secrets=["secret_assignment"], note="yaml password")

# verify embedded check values
for r in rows:
    pass
with open('corpus.jsonl','w') as f:
    for r in rows:
        f.write(json.dumps(r, ensure_ascii=False)+'\n')
print(len(rows), sum(1 for r in rows if r['pii']), sum(1 for r in rows if r['secrets']))
for c in ["4111111111111111","5555555555554444","378282246310005","6011111111111117","4012888888881881","3530111333300000","30569309025904","2221000000000009","5105105105105100","4222222222222","6011000990139424","371449635398431","6200000000000005","4000056655665556","4111111111111112","1234567890123456"]:
    print(c, luhn_ok(c))
for i in ["GB82WEST12345698765432","DE89370400440532013000","FR1420041010050500013M02606","NL91ABNA0417164300","ES9121000418450200051332","IT60X0542811101000000123456","CH9300762011623852957","BE68539007547034","NO9386011117947","PL61109010140000071219812874","AT611904300234573201","SE4550000000058398257466","GB83WEST12345698765432","DE00370400440532013000"]:
    print(i, iban_ok(i))
