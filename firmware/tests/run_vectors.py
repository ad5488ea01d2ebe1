# Checks the firmware's wire format code against the shared vectors file.
# Run with the MicroPython unix port:  micropython firmware/tests/run_vectors.py VECTORS.jsonl
# Prints one "FAIL <name>: <why>" line per mismatch, then "checked N failed M".

import binascii
import json
import sys

sys.path.insert(0, sys.argv[0].rsplit("/", 2)[0] if "/" in sys.argv[0] else "..")

import pb_proto  # noqa: E402


def message(mtype, fields):
    if mtype == "HELLO":
        return {"v": pb_proto.parse_hello(fields)}
    if mtype == "CFG":
        return pb_proto.parse_cfg(fields)
    if mtype == "STATE":
        state = pb_proto.parse_state(fields)
        state["colours"] = [list(c) for c in state["colours"]]
        return state
    if mtype == "TEST":
        return {"p": pb_proto.parse_test(fields)}
    if mtype == "HB":
        return {}
    raise pb_proto.ProtocolError(pb_proto.E_TYPE)


def check(vector):
    if "stream" in vector:
        splitter = pb_proto.LineSplitter()
        got = []
        for chunk in vector["stream"]:
            for item in splitter.feed(binascii.unhexlify(chunk)):
                if isinstance(item, pb_proto.ProtocolError):
                    got.append({"error": item.code})
                else:
                    got.append(binascii.hexlify(item).decode())
        if got != vector["lines"]:
            return "lines %r" % (got,)
        return None
    data = binascii.unhexlify(vector["hex"])
    if data[-1:] != b"\n":
        return "vector does not end in a newline"
    try:
        seq, mtype, fields = pb_proto.decode_line(data[:-1])
    except pb_proto.ProtocolError as error:
        if error.code != vector.get("error"):
            return "error %r" % error.code
        return None
    if "error" in vector:
        return "decoded, expected error %r" % vector["error"]
    frame = vector["frame"]
    got = {"seq": seq, "type": mtype, "fields": [[k, v] for k, v in fields]}
    if got != frame:
        return "frame %r" % (got,)
    encoded = pb_proto.encode(seq, mtype, fields)
    if encoded != data.replace(b"\r\n", b"\n"):
        return "encodes as %r" % encoded
    if vector.get("direction") != "to_board":
        return None
    try:
        parsed = message(mtype, fields)
    except pb_proto.ProtocolError as error:
        if error.code != vector.get("message_error"):
            return "message error %r" % error.code
        return None
    if "message_error" in vector:
        return "message accepted, expected %r" % vector["message_error"]
    if parsed != vector["message"]:
        return "message %r" % (parsed,)
    return None


def main(path):
    checked = failed = 0
    with open(path) as handle:
        for text in handle:
            if not text.strip():
                continue
            vector = json.loads(text)
            checked += 1
            problem = check(vector)
            if problem is not None:
                failed += 1
                print("FAIL %s: %s" % (vector["name"], problem))
    print("checked %d failed %d" % (checked, failed))
    return failed


sys.exit(1 if main(sys.argv[1]) else 0)
