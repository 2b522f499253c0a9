package detect

import (
	"strconv"
	"strings"
	"sync"
)

// provider is one row of the provider-token table: credentials that carry
// a fixed, distinctive prefix, so a literal search finds every candidate
// and a pattern run on the few bytes around it decides. rules names the
// gitleaks rule ids (config/gitleaks.toml) the row covers; docs/secrets.md
// lists them.
type provider struct {
	kind    string
	rules   []string
	anchors []string // every match holds one of them
	pattern string   // RE2, on the region around an anchor
	// entropy is the least Shannon entropy (bits per byte) of the whole
	// match, as the rule sets use to drop repeated-character stand-ins.
	entropy float64
	// mixed asks for both letters and digits in the part after the
	// anchor (for prefixes that also start ordinary words).
	mixed bool
	// right is how far past the anchor a match may reach (default 256).
	right int
}

// Provider-token kinds.
const (
	OnePasswordToken    = "1password_token"
	AdobeClientSecret   = "adobe_client_secret"
	AgeSecretKey        = "age_secret_key"
	AirtableToken       = "airtable_token"
	AlibabaAccessKeyID  = "alibaba_access_key_id"
	ArtifactoryToken    = "artifactory_token"
	AWSBedrockKey       = "aws_bedrock_api_key"
	AzureADClientSecret = "azure_ad_client_secret"
	ClickHouseSecret    = "clickhouse_secret_key"
	ClojarsToken        = "clojars_token"
	CloudflareOriginKey = "cloudflare_origin_ca_key"
	DatabricksToken     = "databricks_token"
	DigitalOceanToken   = "digitalocean_token"
	DopplerToken        = "doppler_token"
	DuffelToken         = "duffel_token"
	DynatraceToken      = "dynatrace_token"
	EasyPostToken       = "easypost_token"
	FacebookToken       = "facebook_access_token"
	FlyioToken          = "flyio_token"
	FrameioToken        = "frameio_token"
	GitLabToken         = "gitlab_token"
	GrafanaToken        = "grafana_token"
	HarnessKey          = "harness_api_key"
	TerraformToken      = "terraform_cloud_token"
	HerokuKey           = "heroku_api_key"
	HuggingFaceToken    = "huggingface_token"
	InfracostToken      = "infracost_token"
	Intra42Secret       = "intra42_client_secret"
	LinearKey           = "linear_api_key"
	MaxMindKey          = "maxmind_license_key"
	TeamsWebhook        = "teams_webhook"
	NewRelicKey         = "new_relic_key"
	NotionToken         = "notion_token"
	NPMToken            = "npm_token"
	OctopusDeployKey    = "octopus_deploy_key"
	OpenShiftToken      = "openshift_token"
	PerplexityKey       = "perplexity_api_key"
	PlanetScaleToken    = "planetscale_token"
	PostmanToken        = "postman_token"
	PrefectToken        = "prefect_token"
	PulumiToken         = "pulumi_token"
	PyPIToken           = "pypi_token"
	ReadMeToken         = "readme_token"
	RubyGemsToken       = "rubygems_token"
	ScalingoToken       = "scalingo_token"
	SendGridKey         = "sendgrid_api_key"
	SendinblueKey       = "sendinblue_api_key"
	SentryToken         = "sentry_token"
	SettleMintToken     = "settlemint_token"
	ShippoToken         = "shippo_token"
	ShopifyToken        = "shopify_token"
	SquareToken         = "square_token"
	TelegramBotToken    = "telegram_bot_token"
	TwilioKey           = "twilio_api_key"
	TypeformToken       = "typeform_token"
	VaultToken          = "vault_token"
	SlackWebhook        = "slack_webhook"
	ConnectionPassword  = "connection_string_password"
)

// providers is the provider-token table. Patterns are ours, written from
// each provider's documented token format as the rule sets record it.
var providers = []provider{
	{kind: OnePasswordToken, rules: []string{"1password-secret-key"}, anchors: []string{"A3-"},
		pattern: `\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b`, entropy: 3.8},
	{kind: OnePasswordToken, rules: []string{"1password-service-account-token"}, anchors: []string{"ops_eyJ"},
		pattern: `\bops_eyJ[A-Za-z0-9+/]{250,}={0,3}`, entropy: 4, right: 4096},
	{kind: AdobeClientSecret, rules: []string{"adobe-client-secret"}, anchors: []string{"p8e-"},
		pattern: `\bp8e-[A-Za-z0-9]{32}\b`, entropy: 2, mixed: true},
	{kind: AgeSecretKey, rules: []string{"age-secret-key"}, anchors: []string{"AGE-SECRET-KEY-1"},
		pattern: `AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b`},
	{kind: AirtableToken, rules: []string{"airtable-personnal-access-token"}, anchors: []string{"pat"},
		pattern: `\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b`},
	{kind: AlibabaAccessKeyID, rules: []string{"alibaba-access-key-id"}, anchors: []string{"LTAI"},
		pattern: `\bLTAI[A-Za-z0-9]{20}\b`, entropy: 2, mixed: true},
	{kind: ArtifactoryToken, rules: []string{"artifactory-api-key"}, anchors: []string{"AKCp"},
		pattern: `\bAKCp[A-Za-z0-9]{69}\b`, entropy: 4.5},
	{kind: ArtifactoryToken, rules: []string{"artifactory-reference-token"}, anchors: []string{"cmVmd"},
		pattern: `\bcmVmd[A-Za-z0-9]{59}\b`, entropy: 4.5},
	{kind: AWSBedrockKey, rules: []string{"aws-amazon-bedrock-api-key-long-lived"}, anchors: []string{"ABSK"},
		pattern: `\bABSK[A-Za-z0-9+/]{109,269}={0,2}`, entropy: 3, right: 300},
	{kind: AWSBedrockKey, rules: []string{"aws-amazon-bedrock-api-key-short-lived"}, anchors: []string{"bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t"},
		pattern: `bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%_-]*`, right: 4096},
	{kind: AzureADClientSecret, rules: []string{"azure-ad-client-secret"}, anchors: []string{"Q~"},
		pattern: `(?:^|[\\'"` + "`" + `\s>=:(,)])([A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34})(?:$|[\\'"` + "`" + `\s<),])`, entropy: 3},
	{kind: ClickHouseSecret, rules: []string{"clickhouse-cloud-api-secret-key"}, anchors: []string{"4b1d"},
		pattern: `\b4b1d[A-Za-z0-9]{38}\b`, entropy: 3, mixed: true},
	{kind: ClojarsToken, rules: []string{"clojars-api-token"}, anchors: []string{"CLOJARS_"},
		pattern: `\bCLOJARS_[A-Za-z0-9]{60}\b`, entropy: 2},
	{kind: CloudflareOriginKey, rules: []string{"cloudflare-origin-ca-key"}, anchors: []string{"v1.0-"},
		pattern: `\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b`, entropy: 2},
	{kind: DatabricksToken, rules: []string{"databricks-api-token"}, anchors: []string{"dapi"},
		pattern: `\bdapi[a-f0-9]{32}(?:-\d)?\b`, entropy: 3, mixed: true},
	{kind: DigitalOceanToken, rules: []string{"digitalocean-access-token", "digitalocean-pat", "digitalocean-refresh-token"},
		anchors: []string{"doo_v1_", "dop_v1_", "dor_v1_"}, pattern: `\bdo[opr]_v1_[a-f0-9]{64}\b`, entropy: 3},
	{kind: DopplerToken, rules: []string{"doppler-api-token"}, anchors: []string{"dp.pt."},
		pattern: `\bdp\.pt\.[A-Za-z0-9]{43}\b`, entropy: 2},
	{kind: DuffelToken, rules: []string{"duffel-api-token"}, anchors: []string{"duffel_test_", "duffel_live_"},
		pattern: `\bduffel_(?:test|live)_[A-Za-z0-9_\-=]{43}`, entropy: 2},
	{kind: DynatraceToken, rules: []string{"dynatrace-api-token"}, anchors: []string{"dt0c01."},
		pattern: `\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}\b`, entropy: 4},
	{kind: EasyPostToken, rules: []string{"easypost-api-token", "easypost-test-api-token"}, anchors: []string{"EZAK", "EZTK"},
		pattern: `\bEZ[AT]K[A-Za-z0-9]{54}\b`, entropy: 2},
	{kind: FacebookToken, rules: []string{"facebook-page-access-token"}, anchors: []string{"EAAM", "EAAC"},
		pattern: `\bEAA[MC][A-Za-z0-9]{100,}\b`, entropy: 4, right: 1024},
	{kind: FlyioToken, rules: []string{"flyio-access-token"}, anchors: []string{"fo1_", "fm1a_", "fm1r_", "fm2_"},
		pattern: `\b(?:fo1_[\w-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,}={0,3}|fm2_[A-Za-z0-9+/]{100,}={0,3})`, entropy: 4, right: 4096},
	{kind: FrameioToken, rules: []string{"frameio-api-token"}, anchors: []string{"fio-u-"},
		pattern: `\bfio-u-[A-Za-z0-9\-_=]{64}`, entropy: 3},
	{kind: GitLabToken, rules: []string{"gitlab-cicd-job-token"}, anchors: []string{"glcbt-"},
		pattern: `\bglcbt-[0-9A-Za-z]{1,5}_[0-9A-Za-z_\-]{20,}`, entropy: 3},
	{kind: GitLabToken, rules: []string{"gitlab-deploy-token", "gitlab-feature-flag-client-token", "gitlab-feed-token",
		"gitlab-incoming-mail-token", "gitlab-kubernetes-agent-token", "gitlab-oauth-app-secret", "gitlab-pat",
		"gitlab-pat-routable", "gitlab-runner-authentication-token", "gitlab-runner-authentication-token-routable", "gitlab-scim-token"},
		anchors: []string{"gldt-", "glffct-", "glft-", "glimt-", "glagent-", "gloas-", "glpat-", "glrt-", "glsoat-"},
		pattern: `\bgl(?:dt|ffct|ft|imt|agent|oas|pat|rt|soat)-[0-9A-Za-z_\-]{20,300}(?:\.[0-9A-Za-z]{9})?`, entropy: 3},
	{kind: GitLabToken, rules: []string{"gitlab-ptt"}, anchors: []string{"glptt-"},
		pattern: `\bglptt-[0-9a-f]{40}\b`, entropy: 3},
	{kind: GitLabToken, rules: []string{"gitlab-rrt"}, anchors: []string{"GR1348941"},
		pattern: `\bGR1348941[\w-]{20,}`, entropy: 3},
	{kind: GitLabToken, rules: []string{"gitlab-session-cookie"}, anchors: []string{"_gitlab_session="},
		pattern: `_gitlab_session=[0-9A-Za-z]{32}\b`, entropy: 3},
	{kind: GrafanaToken, rules: []string{"grafana-api-key"}, anchors: []string{"eyJrIjoi"},
		pattern: `\beyJrIjoi[A-Za-z0-9]{70,400}={0,3}`, entropy: 3, right: 512},
	{kind: GrafanaToken, rules: []string{"grafana-cloud-api-token"}, anchors: []string{"glc_"},
		pattern: `\bglc_[A-Za-z0-9+/]{32,400}={0,3}`, entropy: 3, right: 512},
	{kind: GrafanaToken, rules: []string{"grafana-service-account-token"}, anchors: []string{"glsa_"},
		pattern: `\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b`, entropy: 3},
	{kind: HarnessKey, rules: []string{"harness-api-key"}, anchors: []string{"pat.", "sat."},
		pattern: `\b(?:pat|sat)\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}\b`, entropy: 3},
	{kind: TerraformToken, rules: []string{"hashicorp-tf-api-token"}, anchors: []string{".atlasv1."},
		pattern: `\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9\-_=]{60,70}`, entropy: 3.5},
	{kind: HerokuKey, rules: []string{"heroku-api-key-v2"}, anchors: []string{"HRKU-AA"},
		pattern: `\bHRKU-AA[0-9A-Za-z_\-]{58}\b`, entropy: 4},
	{kind: HuggingFaceToken, rules: []string{"huggingface-access-token", "huggingface-organization-api-token"}, anchors: []string{"hf_", "api_org_"},
		pattern: `\b(?:hf|api_org)_[A-Za-z]{34}\b`, entropy: 2},
	{kind: InfracostToken, rules: []string{"infracost-api-token"}, anchors: []string{"ico-"},
		pattern: `\bico-[A-Za-z0-9]{32}\b`, entropy: 3, mixed: true},
	{kind: Intra42Secret, rules: []string{"intra42-client-secret"}, anchors: []string{"s-s4t2ud-", "s-s4t2af-"},
		pattern: `\bs-s4t2(?:ud|af)-[A-Fa-f0-9]{64}\b`, entropy: 3},
	{kind: LinearKey, rules: []string{"linear-api-key"}, anchors: []string{"lin_api_"},
		pattern: `\blin_api_[A-Za-z0-9]{40}\b`, entropy: 2},
	{kind: MaxMindKey, rules: []string{"maxmind-license-key"}, anchors: []string{"_mmk"},
		pattern: `\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\b`, entropy: 4},
	{kind: TeamsWebhook, rules: []string{"microsoft-teams-webhook"}, anchors: []string{".webhook.office.com/"},
		pattern: `https://[a-z0-9]+\.webhook\.office\.com/webhookb2/[a-z0-9]{8}-(?:[a-z0-9]{4}-){3}[a-z0-9]{12}@[a-z0-9]{8}-(?:[a-z0-9]{4}-){3}[a-z0-9]{12}/IncomingWebhook/[a-z0-9]{32}/[a-z0-9]{8}-(?:[a-z0-9]{4}-){3}[a-z0-9]{12}(?:/[A-Za-z0-9]{10,})?`},
	{kind: NewRelicKey, rules: []string{"new-relic-user-api-key", "new-relic-insert-key"}, anchors: []string{"NRAK-", "NRII-"},
		pattern: `\b(?:NRAK-[A-Za-z0-9]{27}|NRII-[A-Za-z0-9\-]{32})\b`, entropy: 3, mixed: true},
	{kind: NotionToken, rules: []string{"notion-api-token"}, anchors: []string{"ntn_"},
		pattern: `\bntn_[0-9]{11}[A-Za-z0-9]{35}\b`, entropy: 4},
	{kind: NPMToken, rules: []string{"npm-access-token"}, anchors: []string{"npm_"},
		pattern: `\bnpm_[A-Za-z0-9]{36}\b`, entropy: 2, mixed: true},
	{kind: OctopusDeployKey, rules: []string{"octopus-deploy-api-key"}, anchors: []string{"API-"},
		pattern: `\bAPI-[A-Z0-9]{26}\b`, entropy: 3, mixed: true},
	{kind: OpenShiftToken, rules: []string{"openshift-user-token"}, anchors: []string{"sha256~"},
		pattern: `\bsha256~[\w-]{43}`, entropy: 3.5},
	{kind: PerplexityKey, rules: []string{"perplexity-api-key"}, anchors: []string{"pplx-"},
		pattern: `\bpplx-[A-Za-z0-9]{48}\b`, entropy: 4},
	{kind: PlanetScaleToken, rules: []string{"planetscale-api-token", "planetscale-oauth-token", "planetscale-password"},
		anchors: []string{"pscale_tkn_", "pscale_oauth_", "pscale_pw_"}, pattern: `\bpscale_(?:tkn|oauth|pw)_[\w=.\-]{32,64}`, entropy: 3},
	{kind: PostmanToken, rules: []string{"postman-api-token"}, anchors: []string{"PMAK-"},
		pattern: `\bPMAK-[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}\b`, entropy: 3},
	{kind: PrefectToken, rules: []string{"prefect-api-token"}, anchors: []string{"pnu_"},
		pattern: `\bpnu_[A-Za-z0-9]{36}\b`, entropy: 2, mixed: true},
	{kind: PulumiToken, rules: []string{"pulumi-api-token"}, anchors: []string{"pul-"},
		pattern: `\bpul-[a-f0-9]{40}\b`, entropy: 2, mixed: true},
	{kind: PyPIToken, rules: []string{"pypi-upload-token"}, anchors: []string{"pypi-AgEIcHlwaS5vcmc"},
		pattern: `\bpypi-AgEIcHlwaS5vcmc[\w-]{50,1000}`, entropy: 3, right: 1100},
	{kind: ReadMeToken, rules: []string{"readme-api-token"}, anchors: []string{"rdme_"},
		pattern: `\brdme_[a-z0-9]{70}\b`, entropy: 2},
	{kind: RubyGemsToken, rules: []string{"rubygems-api-token"}, anchors: []string{"rubygems_"},
		pattern: `\brubygems_[a-f0-9]{48}\b`, entropy: 2},
	{kind: ScalingoToken, rules: []string{"scalingo-api-token"}, anchors: []string{"tk-us-"},
		pattern: `\btk-us-[\w-]{48}`, entropy: 2},
	{kind: SendGridKey, rules: []string{"sendgrid-api-token"}, anchors: []string{"SG."}, mixed: true,
		pattern: `\bSG\.[A-Za-z0-9=_\-.]{66}`, entropy: 2},
	{kind: SendinblueKey, rules: []string{"sendinblue-api-token"}, anchors: []string{"xkeysib-"},
		pattern: `\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b`, entropy: 2},
	{kind: SentryToken, rules: []string{"sentry-user-token"}, anchors: []string{"sntryu_"},
		pattern: `\bsntryu_[a-f0-9]{64}\b`, entropy: 3.5},
	{kind: SentryToken, rules: []string{"sentry-org-token"}, anchors: []string{"sntrys_eyJpYXQiO"},
		pattern: `\bsntrys_eyJpYXQiO[A-Za-z0-9+/]{10,200}(?:LCJyZWdpb25fdXJs|InJlZ2lvbl91cmwi|cmVnaW9uX3VybCI6)[A-Za-z0-9+/]{10,200}={0,2}_[A-Za-z0-9+/]{43}`,
		entropy: 4.5, right: 600},
	{kind: SettleMintToken, rules: []string{"settlemint-application-access-token", "settlemint-personal-access-token", "settlemint-service-access-token"},
		anchors: []string{"sm_aat_", "sm_pat_", "sm_sat_"}, pattern: `\bsm_[aps]at_[A-Za-z0-9]{16}\b`, entropy: 3},
	{kind: ShippoToken, rules: []string{"shippo-api-token"}, anchors: []string{"shippo_live_", "shippo_test_"},
		pattern: `\bshippo_(?:live|test)_[A-Fa-f0-9]{40}\b`, entropy: 2},
	{kind: ShopifyToken, rules: []string{"shopify-access-token", "shopify-custom-access-token", "shopify-private-app-access-token", "shopify-shared-secret"},
		anchors: []string{"shpat_", "shpca_", "shppa_", "shpss_"}, pattern: `\bshp(?:at|ca|pa|ss)_[A-Fa-f0-9]{32}\b`, entropy: 2},
	{kind: SquareToken, rules: []string{"square-access-token"}, anchors: []string{"sq0atp-", "EAAA"},
		pattern: `\b(?:EAAA|sq0atp-)[\w-]{22,60}`, entropy: 2, mixed: true},
	{kind: SquareToken, rules: []string{"square-secret"}, anchors: []string{"sq0csp-"},
		pattern: `\bsq0csp-[\w-]{43}`, entropy: 2},
	{kind: TelegramBotToken, rules: []string{"telegram-bot-api-token"}, anchors: []string{":A"},
		pattern: `\b[0-9]{5,16}:A[A-Za-z0-9_\-]{34}\b`, entropy: 3, mixed: true},
	{kind: TwilioKey, rules: []string{"twilio-api-key"}, anchors: []string{"SK"},
		pattern: `\bSK[0-9a-fA-F]{32}\b`, entropy: 3, mixed: true},
	{kind: TypeformToken, rules: []string{"typeform-api-token"}, anchors: []string{"tfp_"},
		pattern: `\btfp_[A-Za-z0-9\-_.=]{59}`, entropy: 3},
	{kind: VaultToken, rules: []string{"vault-batch-token", "vault-service-token"}, anchors: []string{"hvb.", "hvs."},
		pattern: `\b(?:hvb\.[\w-]{138,300}|hvs\.[\w-]{90,120})`, entropy: 3.5, right: 400},
	{kind: SlackWebhook, rules: []string{"slack-webhook-url"}, anchors: []string{"hooks.slack.com/"},
		pattern: `(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{24,}`},
}

// wordBytes are ASCII letters, digits and the underscore.
var wordBytes = setOf("_", digits, lowers, uppers)

// provChars may follow an anchor inside a token or URL.
var provChars = setOf("_-.+/=~:@%", digits, lowers, uppers)

// providerDetectors turns the provider table into detector rows, each
// with its own literal check and anchor windows.
func providerDetectors() []*detector {
	out := make([]*detector, 0, len(providers))
	for i := range providers {
		p := &providers[i]
		right := p.right
		if right == 0 {
			right = 256
		}
		group := 0
		if strings.Contains(p.pattern, "(?:^|") {
			group = 1
		}
		out = append(out, &detector{
			kind:    p.kind,
			gate:    i + 1,
			re:      lazy(p.pattern),
			windows: around(p.anchors, provChars, 96, provChars, right),
			group:   group,
			accept:  acceptProvider(p),
			mask:    maskProvider,
		})
	}
	return out
}

// acceptProvider drops stand-ins: a body (the match past its anchor) that
// is a placeholder, too low in entropy or, where asked, not mixed.
func acceptProvider(p *provider) func(string, int, int) (int, int, bool) {
	return func(text string, s, e int) (int, int, bool) {
		v := text[s:e]
		// A token that goes on is some other, longer string.
		if e < len(text) && wordBytes[text[e]] {
			return 0, 0, false
		}
		// Nor is one that a dot or slash joins to more of a name or path
		// (video_box.ico-7a38….png, a fixed-length token with -more after it).
		if e+1 < len(text) && (text[e] == '.' || text[e] == '/' || text[e] == '-') && wordBytes[text[e+1]] {
			return 0, 0, false
		}
		body := v
		for _, a := range p.anchors {
			if i := strings.Index(v, a); i >= 0 && i+len(a) < len(v) {
				body = v[i+len(a):]
				break
			}
		}
		if IsPlaceholder(body) || entropy(v) < p.entropy || (p.mixed && !mixed(body)) {
			return 0, 0, false
		}
		return s, e, true
	}
}

// maskProvider keeps the value's first third at most, up to its first
// separator, and the length: glpat-…(26 chars).
func maskProvider(v string) string {
	n := strings.IndexAny(v, "_-.~:")
	if n < 0 || n+1 > len(v)/3 {
		n = min(4, len(v)/3) - 1
	}
	if strings.HasPrefix(v, "http") {
		if i := strings.Index(v, "://"); i >= 0 {
			if j := strings.IndexByte(v[i+3:], '/'); j >= 0 {
				return v[:i+3+j+1] + "…(" + strconv.Itoa(len(v)) + " chars)"
			}
		}
	}
	return maskPrefix(n + 1)(v)
}

// anchorIndex finds, in one pass over a text, which provider rows have an
// anchor in it: a bit per two-byte prefix of any anchor (8 KiB, checked
// at every byte), then the anchors with that prefix.
type anchorIndex struct {
	bits  [1 << 16 / 64]uint64
	heads map[uint16][]anchorRef
}

type anchorRef struct {
	anchor string
	row    int
}

var providerAnchors = sync.OnceValue(func() *anchorIndex {
	ix := &anchorIndex{heads: map[uint16][]anchorRef{}}
	for i, p := range providers {
		for _, a := range p.anchors {
			h := uint16(a[0])<<8 | uint16(a[1])
			ix.bits[h/64] |= 1 << (h % 64)
			ix.heads[h] = append(ix.heads[h], anchorRef{a, i})
		}
	}
	return ix
})

// maxProviders bounds the provider table, so that presence needs no
// allocation (TestProviderTable checks it).
const maxProviders = 128

// providerPresence sets, by provider row, whether text holds one of the
// row's anchors.
func providerPresence(text string, present *[maxProviders]bool) {
	ix := providerAnchors()
	for i := 0; i+1 < len(text); i++ {
		h := uint16(text[i])<<8 | uint16(text[i+1])
		if ix.bits[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		for _, r := range ix.heads[h] {
			if !present[r.row] && strings.HasPrefix(text[i:], r.anchor) {
				present[r.row] = true
			}
		}
	}
}
