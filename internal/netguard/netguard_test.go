package netguard

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"testing"
)

// These tests never send a packet to a non-loopback address, even with a
// broken guard: dialling goes through recordingDial, which records the
// address and returns an error without connecting, and the only real
// sockets are on 127.0.0.1.

var errNotConnecting = errors.New("test dialer: recorded, not connecting")

type recorder struct {
	mu    sync.Mutex
	addrs []string
}

func (r *recorder) dial(_ context.Context, network, address string) (net.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addrs = append(r.addrs, address)
	return nil, errNotConnecting
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.addrs...)
}

func TestCheck(t *testing.T) {
	tests := []struct {
		addr    string
		blocked bool
		why     string
	}{
		{"127.0.0.1", true, "loopback"},
		{"127.255.255.254", true, "all of 127/8 is loopback"},
		{"10.1.2.3", true, "RFC 1918"},
		{"172.16.0.1", true, "RFC 1918"},
		{"172.31.255.255", true, "RFC 1918 upper end"},
		{"192.168.0.10", true, "RFC 1918"},
		{"100.64.0.1", true, "CGNAT shared space"},
		{"100.127.255.254", true, "CGNAT upper end"},
		{"169.254.169.254", true, "cloud metadata, link-local"},
		{"0.0.0.0", true, "unspecified"},
		{"0.1.2.3", true, "this network"},
		{"255.255.255.255", true, "broadcast"},
		{"224.0.0.1", true, "multicast"},
		{"239.255.255.250", true, "multicast (SSDP)"},
		{"240.0.0.1", true, "reserved"},
		{"192.0.2.1", true, "TEST-NET-1"},
		{"198.51.100.1", true, "TEST-NET-2"},
		{"203.0.113.1", true, "TEST-NET-3"},
		{"198.18.0.1", true, "benchmarking"},
		{"198.19.255.255", true, "benchmarking upper end"},
		{"192.0.0.8", true, "IETF protocol assignments"},
		{"::1", true, "IPv6 loopback"},
		{"::", true, "IPv6 unspecified"},
		{"fc00::1", true, "unique-local"},
		{"fd12:3456::1", true, "unique-local"},
		{"fe80::1", true, "link-local"},
		{"fe80::1%eth0", true, "link-local with a zone"},
		{"ff02::1", true, "multicast"},
		{"2001:db8::1", true, "documentation"},
		{"2001:2::1", true, "benchmarking"},
		{"3fff::1", true, "documentation (RFC 9637)"},
		{"::ffff:127.0.0.1", true, "IPv4-mapped loopback"},
		{"::ffff:169.254.169.254", true, "IPv4-mapped metadata"},
		{"::ffff:10.0.0.1", true, "IPv4-mapped private"},
		{"::ffff:0:127.0.0.1", true, "IPv4-translated loopback"},
		{"::127.0.0.1", true, "IPv4-compatible loopback"},
		{"64:ff9b::7f00:1", true, "NAT64 of loopback"},
		{"64:ff9b::a9fe:a9fe", true, "NAT64 of metadata"},
		{"2002:7f00:1::", true, "6to4 of loopback"},
		{"2002:c0a8:101::1", true, "6to4 of 192.168.1.1"},
		{"2001:0:4136:e378::1", true, "Teredo"},
		{"8.8.8.8", false, "public"},
		{"93.184.215.14", false, "public"},
		{"172.32.0.1", false, "just past 172.16/12"},
		{"100.128.0.1", false, "just past 100.64/10"},
		{"::ffff:8.8.8.8", false, "IPv4-mapped public"},
		{"64:ff9b::808:808", false, "NAT64 of a public address"},
		{"2606:4700:4700::1111", false, "public IPv6"},
	}
	g := New()
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			err := g.Check(netip.MustParseAddr(tt.addr))
			if got := err != nil; got != tt.blocked {
				t.Errorf("Check(%s) = %v, want blocked %v (%s)", tt.addr, err, tt.blocked, tt.why)
			}
			if err != nil && !errors.Is(err, ErrBlocked) {
				t.Errorf("Check(%s) error %v does not match ErrBlocked", tt.addr, err)
			}
		})
	}
}

func TestAllowList(t *testing.T) {
	g := New(netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("10.9.0.0/16"))
	tests := []struct {
		addr    string
		blocked bool
		why     string
	}{
		{"127.0.0.1", false, "allowed exactly"},
		{"::ffff:127.0.0.1", false, "mapped form of an allowed address"},
		{"127.0.0.2", true, "outside the /32"},
		{"10.9.200.1", false, "inside the allowed /16"},
		{"10.10.0.1", true, "outside the allowed /16"},
		{"169.254.169.254", true, "not allowed"},
		{"::1", true, "IPv6 loopback not allowed by an IPv4 prefix"},
	}
	for _, tt := range tests {
		err := g.Check(netip.MustParseAddr(tt.addr))
		if got := err != nil; got != tt.blocked {
			t.Errorf("Check(%s) = %v, want blocked %v (%s)", tt.addr, err, tt.blocked, tt.why)
		}
	}
}

func TestParseLegacyIPv4(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" when not an address
	}{
		{"127.1", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"127.0.1", "127.0.0.1"},
		{"017700000001", "127.0.0.1"},
		{"10.0.0.1", "10.0.0.1"},
		{"0", "0.0.0.0"},
		{"256.0.0.1", ""},
		{"1.2.3.4.5", ""},
		{"4294967296", ""},
		{"127.0.0.256", ""},
		{"example.com", ""},
		{"0x", ""},
		{"08.0.0.1", ""},
		{"", ""},
	}
	for _, tt := range tests {
		a, ok := ParseLegacyIPv4(tt.in)
		got := ""
		if ok {
			got = a.String()
		}
		if got != tt.want {
			t.Errorf("ParseLegacyIPv4(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		url string
		ok  bool
		why string
	}{
		{"https://hooks.example.com/grade", true, "public name: decided at dial time"},
		{"http://93.184.215.14:8080/x", true, "public literal"},
		{"http://127.0.0.1/", false, "loopback literal"},
		{"http://127.1/", false, "short form of loopback"},
		{"http://0x7f000001/", false, "hex loopback"},
		{"http://2130706433/", false, "decimal loopback"},
		{"http://0177.0.0.1/", false, "octal loopback"},
		{"http://0x5db8d70e/", false, "hex spelling of a public address is refused too"},
		{"http://[::1]/", false, "IPv6 loopback"},
		{"http://[::ffff:127.0.0.1]/", false, "IPv4-mapped loopback"},
		{"http://[::ffff:7f00:1]/", false, "IPv4-mapped loopback in hex"},
		{"http://[fe80::1%25eth0]/", false, "link-local with zone"},
		{"http://169.254.169.254/latest/meta-data/", false, "metadata"},
		{"http://localhost:8080/", false, "localhost"},
		{"http://api.localhost/", false, "subdomain of localhost"},
		{"http://LOCALHOST./", false, "localhost, upper case, trailing dot"},
		{"http://evil@127.0.0.1/", false, "user info"},
		{"http://good.com@evil.com/", false, "user info hiding the host"},
		{"http://127.0.0.1#@good.com", false, "fragment trick"},
		{"http://good.com/#frag", false, "fragments refused"},
		{"ftp://good.com/", false, "scheme"},
		{"file:///etc/passwd", false, "scheme"},
		{"gopher://good.com/", false, "scheme"},
		{"//good.com/", false, "no scheme"},
		{"http:///path", false, "no host"},
		{"http://good.com:0/", false, "port 0"},
		{"http://good.com\\@127.0.0.1/", false, "backslash"},
		{"http:good.com", false, "opaque"},
		{"HTTP://127.0.0.1/", false, "upper-case scheme, loopback"},
		{"HTTPS://hooks.example.com/", true, "upper-case scheme is still https"},
		{"http://[::1]:80", false, "IPv6 loopback with a port"},
		{"http://[::127.0.0.1]/", false, "IPv4-compatible loopback"},
		{"http://[64:ff9b::a00:1]/", false, "NAT64 of 10.0.0.1"},
		{"http://[64:ff9b::808:808]/", true, "NAT64 of a public address"},
		{"http://[2002:a00:1::]/", false, "6to4 of 10.0.0.1"},
		{"http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", false, "Teredo"},
		{"http://[fe80::1%25eth0]:8080/", false, "link-local with zone and port"},
		{"http://127.0.0.1./", false, "loopback with a trailing dot"},
		{"http://0x7f.0.0.1./", false, "hex with a trailing dot"},
		{"http://0/", false, "0 is 0.0.0.0"},
		{"http://user:pass@hooks.example.com/", false, "password in user info"},
		{"http://127.0.0.1\t/", false, "tab"},
		{"http://hooks.example.com:65536/", false, "port out of range"},
	}
	g := New()
	for _, tt := range tests {
		_, err := g.CheckURL(tt.url)
		if got := err == nil; got != tt.ok {
			t.Errorf("CheckURL(%q) = %v, want ok %v (%s)", tt.url, err, tt.ok, tt.why)
		}
	}
	// The allow-list reaches a loopback test server.
	if _, err := New(netip.MustParsePrefix("127.0.0.1/32")).CheckURL("http://127.0.0.1:8080/"); err != nil {
		t.Errorf("allowed loopback refused: %v", err)
	}
}

func TestControl(t *testing.T) {
	g := New()
	tests := []struct {
		addr    string
		blocked bool
	}{
		{"127.0.0.1:80", true},
		{"[::ffff:127.0.0.1]:80", true},
		{"[::1]:443", true},
		{"169.254.169.254:80", true},
		{"93.184.215.14:443", false},
		{"not-an-address", true},
		{"localhost:80", true},
		{"[fe80::1%eth0]:80", true},
		{"[::ffff:169.254.169.254]:80", true},
		{"[64:ff9b::a9fe:a9fe]:80", true},
		{"[2002:a9fe:a9fe::1]:80", true},
		{"[2001:0:4136:e378::1]:443", true},
		{"[2606:4700:4700::1111]:443", false},
	}
	for _, tt := range tests {
		err := g.Control("tcp", tt.addr, nil)
		if got := err != nil; got != tt.blocked {
			t.Errorf("Control(%q) = %v, want blocked %v", tt.addr, err, tt.blocked)
		}
	}
}

// TestDialerLiterals dials every blocked range and encoding through a
// Dialer whose dial function only records: blocked addresses must never
// reach it.
func TestDialerLiterals(t *testing.T) {
	tests := []struct {
		addr string
		want string // the address dialled; "" when refused
	}{
		{"127.0.0.1:80", ""},
		{"127.1:80", ""},
		{"0x7f000001:80", ""},
		{"2130706433:80", ""},
		{"0177.0.0.1:80", ""},
		{"[::ffff:127.0.0.1]:80", ""},
		{"[::1]:80", ""},
		{"10.0.0.1:80", ""},
		{"172.20.1.1:80", ""},
		{"192.168.1.1:80", ""},
		{"100.64.1.1:80", ""},
		{"169.254.169.254:80", ""},
		{"[fd00::1]:80", ""},
		{"[fe80::1]:80", ""},
		{"224.0.0.251:5353", ""},
		{"[ff02::fb]:5353", ""},
		{"0.0.0.0:80", ""},
		{"[::]:80", ""},
		{"255.255.255.255:80", ""},
		{"192.0.2.1:80", ""},
		{"198.51.100.1:80", ""},
		{"203.0.113.1:80", ""},
		{"[2001:db8::1]:80", ""},
		{"198.18.0.1:80", ""},
		{"[2001:2::1]:80", ""},
		{"[64:ff9b::7f00:1]:80", ""},
		{"[2002:7f00:1::]:80", ""},
		{"93.184.215.14:443", "93.184.215.14:443"},
		{"[::ffff:93.184.215.14]:443", "93.184.215.14:443"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			rec := &recorder{}
			d := &Dialer{Guard: New(), Dial: rec.dial, Resolve: func(context.Context, string) ([]netip.Addr, error) {
				t.Fatalf("resolver called for a literal %q", tt.addr)
				return nil, nil
			}}
			_, err := d.DialContext(context.Background(), "tcp", tt.addr)
			got := rec.got()
			if tt.want == "" {
				if !errors.Is(err, ErrBlocked) {
					t.Errorf("DialContext(%s) = %v, want ErrBlocked", tt.addr, err)
				}
				if len(got) != 0 {
					t.Errorf("dialled %v, want nothing", got)
				}
				return
			}
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("dialled %v, want [%s]", got, tt.want)
			}
		})
	}
}

func TestDialerNames(t *testing.T) {
	public := netip.MustParseAddr("93.184.215.14")
	loop := netip.MustParseAddr("127.0.0.1")
	tests := []struct {
		name    string
		answers []netip.Addr
		want    []string
		why     string
	}{
		{"public", []netip.Addr{public}, []string{"93.184.215.14:80"}, "checked address dialled as a literal"},
		{"loopback", []netip.Addr{loop}, nil, "name resolving to loopback"},
		{"mixed", []netip.Addr{public, loop}, nil, "any blocked answer refuses the name"},
		{"mapped metadata", []netip.Addr{netip.MustParseAddr("::ffff:169.254.169.254")}, nil, "mapped answer"},
		{"public then NAT64 loopback", []netip.Addr{public, netip.MustParseAddr("64:ff9b::7f00:1")}, nil, "an embedded loopback among the answers"},
		{"public then 6to4 private", []netip.Addr{public, netip.MustParseAddr("2002:a00:1::1")}, nil, "an embedded private address among the answers"},
		{"zoned link-local", []netip.Addr{netip.MustParseAddr("fe80::1%eth0")}, nil, "a zone does not hide link-local"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			d := &Dialer{Dial: rec.dial, Resolve: func(context.Context, string) ([]netip.Addr, error) { return tt.answers, nil }}
			_, err := d.DialContext(context.Background(), "tcp", "hook.test:80")
			if got := rec.got(); len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
				t.Errorf("dialled %v, want %v (%s)", got, tt.want, tt.why)
			}
			if tt.want == nil && !errors.Is(err, ErrBlocked) {
				t.Errorf("err = %v, want ErrBlocked (%s)", err, tt.why)
			}
		})
	}
}

// TestRebinding: the resolver answers a public address first and loopback
// the second time. The first dial goes to the public address it checked,
// never to a name re-resolved later; the second is refused.
func TestRebinding(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	resolve := func(context.Context, string) ([]netip.Addr, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 {
			return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
		}
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	rec := &recorder{}
	d := &Dialer{Guard: New(), Resolve: resolve, Dial: rec.dial}
	if _, err := d.DialContext(context.Background(), "tcp", "rebind.test:80"); !errors.Is(err, errNotConnecting) {
		t.Errorf("first dial: %v, want the recorder's error", err)
	}
	if _, err := d.DialContext(context.Background(), "tcp", "rebind.test:80"); !errors.Is(err, ErrBlocked) {
		t.Errorf("second dial: %v, want ErrBlocked", err)
	}
	if got := rec.got(); len(got) != 1 || got[0] != "93.184.215.14:80" {
		t.Errorf("dialled %v, want only [93.184.215.14:80]", got)
	}
	// The Control hook on its own catches a rebound answer too: it sees the
	// address the socket connects to, after resolution.
	if err := New().Control("tcp", "127.0.0.1:80", nil); !errors.Is(err, ErrBlocked) {
		t.Errorf("Control on the rebound address = %v, want ErrBlocked", err)
	}
}

func TestDialerNetworks(t *testing.T) {
	rec := &recorder{}
	d := &Dialer{Dial: rec.dial}
	for _, n := range []string{"udp", "unix", "ip4:icmp"} {
		if _, err := d.DialContext(context.Background(), n, "93.184.215.14:80"); !errors.Is(err, ErrBlocked) {
			t.Errorf("network %s: %v, want ErrBlocked", n, err)
		}
	}
	if got := rec.got(); len(got) != 0 {
		t.Errorf("dialled %v, want nothing", got)
	}
}

// TestDialerLoopbackServer uses the default dial function (a real
// net.Dialer with the Control hook) against a listener on 127.0.0.1.
func TestDialerLoopbackServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	addr := ln.Addr().String()
	if _, err := (&Dialer{Guard: New()}).DialContext(context.Background(), "tcp", addr); !errors.Is(err, ErrBlocked) {
		t.Errorf("without allow-list: %v, want ErrBlocked", err)
	}
	d := &Dialer{Guard: New(netip.MustParsePrefix("127.0.0.1/32"))}
	c, err := d.DialContext(context.Background(), "tcp", addr)
	if err != nil {
		t.Fatalf("with allow-list: %v", err)
	}
	c.Close()
}

func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"http://127.1/", "http://[::ffff:127.0.0.1]/", "https://a.b/c?d#e", "http://0x7f.1", "http://u@h", "http://[fe80::1%25x]:1/"} {
		f.Add(s)
	}
	g := New()
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := g.CheckURL(raw)
		if err != nil {
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" || u.User != nil || u.Hostname() == "" {
			t.Errorf("CheckURL(%q) accepted %+v", raw, u)
		}
		host := u.Hostname()
		if a, err := netip.ParseAddr(host); err == nil && g.Check(a) != nil {
			t.Errorf("CheckURL(%q) accepted blocked %s", raw, a)
		}
		if a, ok := ParseLegacyIPv4(host); ok && g.Check(a) != nil {
			t.Errorf("CheckURL(%q) accepted blocked %s", raw, a)
		}
	})
}
