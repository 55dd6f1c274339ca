#!/usr/bin/env bash
# Prints a bearer token for the local stack (run.sh started it) acting as USER with these roles and groups:
#   token.sh USER ROLE[,ROLE...] [GROUP[,GROUP...]]        e.g.  curl -H "Authorization: Bearer $(token.sh ana viewer)" ...
# Roles: viewer, operator, developer, admin, service ("-" or "" for none). With Keycloak, USER is created or updated
# in realm batchyard to hold exactly these realm roles and groups (through the admin REST API, as the bootstrap
# administrator), then signs in with a password grant on the public client batchyard-cli; the token expires after the
# realm's access token lifespan (1 h); the user's password is new each time, or BATCHYARD_USER_PASSWORD when set (so a
# person can also sign in with it in the browser, as run.sh arranges for the dashboard). With a local signing key, the
# token is signed here and lasts BATCHYARD_TOKEN_HOURS (default 12). Either way the token's audience ("aud") is
# batchyard, which every service requires (the realm's audience mapper puts it there; here it is signed in).
set -euo pipefail
source "$(dirname "$0")/common.sh"
[ $# -ge 2 ] || die "usage: token.sh USER ROLE[,ROLE...] [GROUP[,GROUP...]]"
USER_NAME=$1 ROLES=${2#-} GROUPS_=${3:-}
[[ $USER_NAME =~ ^[A-Za-z0-9._@-]+$ ]] || die "user names are letters, digits and . _ @ -, got '$USER_NAME'"
[ -f "$WORK/identity.env" ] || die "no identity settings in $WORK/identity.env: start the stack with deploy/local/run.sh"
source "$WORK/identity.env"

case $IDENTITY_MODE in
keycloak)
  KC_ADMIN_PASSWORD=$(cat "$WORK/keycloak/admin.password") KC_URL=$KEYCLOAK_URL \
  python3 - "$USER_NAME" "$ROLES" "$GROUPS_" <<'PY'
import json, os, secrets, sys, urllib.error, urllib.parse, urllib.request

kc, realm = os.environ["KC_URL"], "batchyard"
user, roles, groups = sys.argv[1], [r for r in sys.argv[2].split(",") if r], [g for g in sys.argv[3].split(",") if g]

def call(method, path, body=None, token=None, form=None):
    data, headers = None, {}
    if form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    elif body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(kc + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
            return json.loads(text) if text else None, response.headers
    except urllib.error.HTTPError as e:
        sys.exit("[batchyard] ERROR: Keycloak %s %s -> HTTP %s: %s" % (method, path, e.code, e.read().decode()[:400]))
    except urllib.error.URLError as e:
        sys.exit("[batchyard] ERROR: Keycloak at %s does not answer (%s): is the stack running?" % (kc, e.reason))

def sign_in(realm_name, form):
    answer, _ = call("POST", "/realms/%s/protocol/openid-connect/token" % realm_name, form=form)
    return answer["access_token"]

admin = sign_in("master", {"grant_type": "password", "client_id": "admin-cli", "username": "admin",
                           "password": os.environ["KC_ADMIN_PASSWORD"]})
base = "/admin/realms/" + realm
q = urllib.parse.quote

known = {r["name"]: r for r in call("GET", base + "/roles?briefRepresentation=true", token=admin)[0]}
unknown = [r for r in roles if r not in known]
if unknown:
    sys.exit("[batchyard] ERROR: no such realm role(s): %s (there are: %s)" % (", ".join(unknown), ", ".join(sorted(known))))

# Keycloak's default user profile wants an e-mail and names before it lets a user sign in.
profile = {"username": user, "enabled": True, "email": user.lower() + "@batchyard.local", "emailVerified": True,
           "firstName": user, "lastName": "Batchyard", "requiredActions": []}
found = call("GET", base + "/users?exact=true&username=" + q(user), token=admin)[0]
if found:
    uid = found[0]["id"]
    call("PUT", base + "/users/" + uid, dict(profile, id=uid), token=admin)
else:
    _, headers = call("POST", base + "/users", profile, token=admin)
    uid = headers["Location"].rstrip("/").rsplit("/", 1)[1]
password = os.environ.get("BATCHYARD_USER_PASSWORD") or secrets.token_urlsafe(24)
call("PUT", base + "/users/%s/reset-password" % uid, {"type": "password", "value": password, "temporary": False}, token=admin)

# Exactly the asked-for roles (the realm's default role stays: it grants nothing in Batchyard).
mapped = call("GET", base + "/users/%s/role-mappings/realm" % uid, token=admin)[0] or []
drop = [r for r in mapped if r["name"] in ("viewer", "operator", "developer", "admin", "service") and r["name"] not in roles]
add = [known[r] for r in roles if r not in {m["name"] for m in mapped}]
if drop:
    call("DELETE", base + "/users/%s/role-mappings/realm" % uid, drop, token=admin)
if add:
    call("POST", base + "/users/%s/role-mappings/realm" % uid, add, token=admin)

# Exactly the asked-for groups, created top-level when missing.
member = {g["name"]: g["id"] for g in call("GET", base + "/users/%s/groups" % uid, token=admin)[0] or []}
for name, gid in member.items():
    if name not in groups:
        call("DELETE", base + "/users/%s/groups/%s" % (uid, gid), token=admin)
for name in groups:
    if name in member:
        continue
    existing = [g for g in call("GET", base + "/groups?exact=true&search=" + q(name), token=admin)[0] or [] if g["name"] == name]
    if existing:
        gid = existing[0]["id"]
    else:
        _, headers = call("POST", base + "/groups", {"name": name}, token=admin)
        gid = headers["Location"].rstrip("/").rsplit("/", 1)[1]
    call("PUT", base + "/users/%s/groups/%s" % (uid, gid), token=admin)

print(sign_in(realm, {"grant_type": "password", "client_id": "batchyard-cli", "username": user, "password": password}))
PY
  ;;
key)
  # RS256 over base64url(header).base64url(claims) with the stack's private key.
  b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
  header=$(printf '{"alg":"RS256","typ":"JWT","kid":"batchyard-local"}' | b64url)
  claims=$(python3 - "$USER_NAME" "$ROLES" "$GROUPS_" "$TOKEN_ISSUER" "${BATCHYARD_TOKEN_HOURS:-12}" "$TOKEN_AUDIENCE" <<'PY' | b64url
import json, sys, time
user, roles, groups, issuer, hours, audience = sys.argv[1:7]
now = int(time.time())
print(json.dumps({"iss": issuer, "aud": audience, "sub": user, "preferred_username": user,
                  "roles": [r for r in roles.split(",") if r],
                  "groups": [g for g in groups.split(",") if g], "iat": now, "exp": now + int(float(hours) * 3600)},
                 separators=(",", ":")), end="")
PY
)
  signature=$(printf '%s.%s' "$header" "$claims" | openssl dgst -sha256 -sign "$WORK/signing-key/private.pem" -binary | b64url)
  printf '%s.%s.%s\n' "$header" "$claims" "$signature"
  ;;
*) die "unknown identity mode '$IDENTITY_MODE' in $WORK/identity.env" ;;
esac
