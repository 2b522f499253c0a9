# The python grader's worker: it loads the grader source once, then grades
# one JSON request per line on stdin and answers each with one frame on
# descriptor 3: "NONCE LENGTH\n" then LENGTH bytes of JSON, NONCE being the
# request's. The grader's own prints go to stderr. This is not a sandbox:
# the code runs with the privileges of the process that started it.
import json
import linecache
import math
import numbers
import os
import sys
import traceback


def _describe(e):
    text = str(e)
    msg = type(e).__name__ + (": " + text if text else "")
    if len(msg) > 2000:
        msg = msg[:2000] + "..."
    if isinstance(e, SyntaxError):
        return msg
    own = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == "<grader>"]
    if own:
        f = own[-1]
        where = "%s line %d" % (f.filename, f.lineno)
        if f.line:
            where += ": " + f.line.strip()[:200]
        msg += " (" + where + ")"
    return msg


def _no_network():
    import socket
    import _socket

    def refuse(*args, **kwargs):
        raise PermissionError("network access is disabled in proctor python graders")

    class NoSocket(socket.socket):
        def __init__(self, *args, **kwargs):
            refuse()

    # Every family, AF_UNIX included, through the socket module and the C
    # module under it.
    socket.socket = NoSocket
    socket.SocketType = NoSocket
    for mod in (socket, _socket):
        for name in ("create_connection", "create_server", "getaddrinfo", "gethostbyname",
                     "gethostbyname_ex", "gethostbyaddr", "fromfd", "socketpair", "dup"):
            if hasattr(mod, name):
                setattr(mod, name, refuse)
    _socket.socket = NoSocket
    _socket.SocketType = NoSocket


def main():
    import fcntl
    # Replies go out on descriptor 3, moved to a high descriptor closed on
    # exec; requests come on a copy of stdin. Descriptors 0 and 1 then
    # hold /dev/null and stderr, so grader code printing or reading finds
    # neither channel where it would look.
    rep = fcntl.fcntl(3, fcntl.F_DUPFD_CLOEXEC, 200)
    os.close(3)
    inp = os.fdopen(fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 200), "rb")
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdout = sys.stderr
    sys.stdin = open(os.devnull)
    nonce = [""]

    def send(obj):
        # One frame: "NONCE LENGTH\n" and LENGTH bytes of JSON, NONCE being
        # the one of the request answered.
        body = json.dumps(obj).encode("utf-8")
        data = ("%s %d\n" % (nonce[0], len(body))).encode("ascii") + body
        while data:
            data = data[os.write(rep, data):]

    line = inp.readline()
    if not line:
        return
    init = json.loads(line)
    nonce[0] = init.pop("nonce", "")
    mem = int(init.get("memory_mb") or 0)
    if mem > 0:
        import resource
        limit = mem * 1024 * 1024
        try:
            soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            if hard != resource.RLIM_INFINITY and hard < limit:
                limit = hard
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard if hard != resource.RLIM_INFINITY else limit))
        except (ValueError, OSError) as e:
            send({"ok": False, "fatal": True, "error": "cannot set the memory limit: " + str(e)})
            return
    _no_network()
    source = init["source"]
    linecache.cache["<grader>"] = (len(source), None, source.splitlines(True), "<grader>")
    scope = {"__name__": "proctor_grader"}
    try:
        exec(compile(source, "<grader>", "exec"), scope)
    except BaseException as e:
        send({"ok": False, "fatal": True, "error": "source does not load: " + _describe(e)})
        return
    fn = scope.get("grade")
    if not callable(fn):
        send({"ok": False, "fatal": True, "error": "source defines no grade(sample, item) function"})
        return
    by_name = False
    try:
        import inspect
        by_name = list(inspect.signature(fn).parameters)[:2] == ["item", "sample"]
    except (TypeError, ValueError):
        pass
    send({"ok": True, "by_name": by_name})

    for line in inp:
        req = json.loads(line)
        nonce[0] = req.get("nonce", "")
        try:
            if by_name:
                r = fn(item=req["item"], sample=req["sample"])
            else:
                r = fn(req["sample"], req["item"])
        except MemoryError:
            send({"ok": False, "raised": True, "memory": True, "error": "MemoryError: the memory limit was reached"})
            continue
        except BaseException as e:
            send({"ok": False, "raised": True, "error": _describe(e)})
            continue
        if isinstance(r, bool) or not isinstance(r, numbers.Real):
            send({"ok": False, "error": "grade returned %s, want a number" % type(r).__name__})
            continue
        try:
            f = float(r)
        except (OverflowError, ValueError, TypeError) as e:
            send({"ok": False, "error": "grade returned a number that is not a float: " + _describe(e)})
            continue
        if not math.isfinite(f):
            send({"ok": False, "error": "grade returned %r, want a finite number" % f})
            continue
        send({"ok": True, "score": f})


main()
