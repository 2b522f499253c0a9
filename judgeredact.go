package proctor

import "github.com/proctorhq/proctor/internal/redact"

// scrub passes what a judge sent back, its reply text and its error's
// text, through the endpoint redactor with the judge's secrets, before the
// judge cache stores it or a grade quotes it.
func (m JudgeModel) scrub(r JudgeReply, err error) (JudgeReply, error) {
	r.Text = redact.Endpoint(r.Text, m.Secrets)
	r.Reasoning = redact.Endpoint(r.Reasoning, m.Secrets)
	return r, redact.EndpointError(err, m.Secrets)
}
