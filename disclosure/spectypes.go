package disclosure

import "github.com/proctorhq/proctor"

// SpecTypes returns the disclosure family's spec types (no_pii,
// no_secrets, forbidden) with their reference and builders, for
// [proctor.WithSpecTypes].
func SpecTypes() []proctor.SpecType {
	return []proctor.SpecType{
		{Name: "no_pii", Build: noPIISpec, Family: "disclosure", Summary: "the output holds no personal data",
			Options: []proctor.SpecOptionDoc{{Name: "kinds", Type: "string array", Default: "all kinds", Meaning: "Which kinds to look for: email, phone, ssn, credit_card (Luhn-valid), iban (checksum-valid), ip."}},
			Example: `{"type": "no_pii", "kinds": ["email", "phone"]}`},
		{Name: "no_secrets", Build: noSecretsSpec, Family: "disclosure", Summary: "the output holds no credentials",
			About:   "Finds provider key formats, private key blocks, JWTs and high-entropy assignments; placeholders such as sk-xxxx or <YOUR_KEY> are not secrets.",
			Example: `{"type": "no_secrets"}`},
		{Name: "forbidden", Build: forbiddenSpec, Family: "disclosure", Summary: "the output names none of the listed entities",
			Options: []proctor.SpecOptionDoc{{Name: "entities", Type: "string array", Default: "(required)", Meaning: "Names, codes or phrases that must not appear."}, {Name: "case_sensitive", Type: "boolean", Default: "false", Meaning: "Compare letter case."}},
			Example: `{"type": "forbidden", "entities": ["Project Falcon"]}`},
	}
}

// Types gives a [proctor.Compiler] the disclosure family's spec types.
func Types() proctor.CompilerOption { return proctor.WithSpecTypes(SpecTypes()...) }
