// Package htmltest tests the HTML report of package reportfmt in a real
// browser: headless Chromium driven over the DevTools protocol opens the
// page from disk, clicks its filters, opens cases and compares runs. It
// holds tests only, so that the browser driver stays out of the imports of
// every other package.
//
// The tests skip when no Chromium is found (set PROCTOR_CHROMIUM to its
// path, or install the chromium package), but fail instead when the
// environment variable CI is set. PROCTOR_UPDATE_SCREENSHOTS=1 rewrites the
// screenshots under docs/img; PROCTOR_SCALE_200K=1 adds the 200,000-case
// run to TestBrowserScale.
package htmltest
