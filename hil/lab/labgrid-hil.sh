#!/bin/sh
# labgrid-hil.sh PLACE... [-- HARNESS-OPTION...]: acquire labgrid places, flash and test
# their terminals with the harness (npm run hil, from the repository's root), release them.
# docs/HIL.md, "Labs that use labgrid", says what the places must export.
#
# For labgrid 25.0 and later: labgrid-client finds the gRPC coordinator in LG_COORDINATOR
# (HOST[:PORT], port 20408 by default). labgrid 24 and earlier talk to a crossbar router
# instead: LG_CROSSBAR=ws://HOST:20408/ws. The commands below are the same in both.
#
# Writes into LAB_DIR (default lab): <place>.env.yaml for each place (labgrid-client env)
# and terminals.json, the harness's inventory. Reads the YAML with the Python labgrid
# runs on (it depends on PyYAML): the python3 beside labgrid-client, else python3 on
# PATH; LABGRID_PYTHON chooses another.
set -euf

me=labgrid-hil
dir=${LAB_DIR:-lab}
places=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  places="$places $1"
  shift
done
[ $# -gt 0 ] && shift
if [ -z "$places" ]; then
  echo "usage: $0 PLACE... [-- HARNESS-OPTION...]" >&2
  exit 2
fi
client=$(command -v labgrid-client) || { echo "$me: labgrid-client is not on PATH" >&2; exit 2; }
python=${LABGRID_PYTHON:-$(dirname "$(readlink -f "$client")")/python3}
[ -x "$python" ] || python=python3
# Checked before anything is acquired, so a missing module costs nobody a place.
"$python" -c 'import yaml' 2>/dev/null || {
  echo "$me: $python has no yaml module (PyYAML, which labgrid depends on): set LABGRID_PYTHON to the python3 labgrid is installed in" >&2
  exit 2
}
mkdir -p "$dir"

# The trap comes first, so a failure at any later point releases what was acquired, and only
# that: labgrid-client release fails on a place that is not acquired (or is someone else's).
acquired=
release() {
  for p in $acquired; do
    labgrid-client -p "$p" release || echo "$me: could not release $p" >&2
  done
}
trap 'status=$?; trap - EXIT; release; exit $status' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

names=
for p in $places; do
  labgrid-client -p "$p" acquire
  acquired="$acquired $p"
  # -p takes a place's full name, or else a part of a name or an alias that only one place
  # has; env keys the place by its full name. Read that name and use it from here on.
  labgrid-client -p "$p" env > "$dir/.env.yaml"
  name=$("$python" - "$dir/.env.yaml" <<'PY'
import sys, yaml
targets = yaml.safe_load(open(sys.argv[1]))["targets"]
if len(targets) != 1:
    sys.exit(f"labgrid-client env gave {len(targets)} targets, not one")
print(next(iter(targets)))
PY
)
  acquired=${acquired%"$p"}$name
  mv "$dir/.env.yaml" "$dir/$name.env.yaml"
  [ "$name" = "$p" ] || echo "$me: $p is the place $name" >&2
  names="$names $name"
done

# shellcheck disable=SC2086 # one argument per place name
"$python" - "$dir" $names > "$dir/terminals.json" <<'PY'
import json, os, sys, yaml
folder, places = sys.argv[1], sys.argv[2:]
terminals = []
for place in places:
    env = yaml.safe_load(open(os.path.join(folder, f"{place}.env.yaml")))
    found = {}
    for resource in env["targets"][place]["resources"]:
        for cls, args in resource.items():
            found.setdefault(cls, []).append(args)
    def one(cls):
        got = found.get(cls, [])
        if len(got) != 1:
            sys.exit(f"{place}: {len(got)} {cls} resources; the harness needs one")
        return got[0]
    serial, web = one("NetworkSerialPort"), one("NetworkService")
    protocol = serial.get("protocol", "rfc2217")
    if protocol != "raw":
        sys.exit(f"{place}: its NetworkSerialPort speaks {protocol}; the harness needs raw")
    if "%" in str(web["address"]):
        sys.exit(f"{place}: its NetworkService address {web['address']} is reachable only through the exporter")
    terminals.append({"name": place, "serial": f"tcp://{serial['host']}:{serial['port']}", "url": f"http://{web['address']}"})
json.dump({"terminals": terminals}, sys.stdout, indent=2)
print()
PY

npm run hil -- --inventory "$dir/terminals.json" "$@"
