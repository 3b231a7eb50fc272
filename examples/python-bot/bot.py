#!/usr/bin/env python3
"""An example Virtual Agent in Python 3.9+ with the standard library only.

It pulls its events (GET /api/v1/events, long-poll): no public URL, no web server. Each item is
verified (Standard Webhooks signature) before anything is done with it, handled, and only then is
its cursor written to a file. The next read sends that cursor as `after`, which acknowledges it,
so a restarted bot carries on after the last event it handled and answers nothing twice.

It greets each chat it is given, answers what the customer writes, and hands the chat to a team of
people when the customer asks for one. Settings are environment variables (see README.md).
"""

import base64
import hashlib
import hmac
import json
import os
import re
import signal
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timezone

# Words that mean "let me talk to a person".
WANTS_HUMAN = re.compile(r"\b(agent|human|person|someone real)\b", re.IGNORECASE)
# Refunds are for people to decide: a chat that mentions one is handed over.
MENTIONS_REFUND = re.compile(r"\brefund", re.IGNORECASE)
# BOT_REGRESSION=no-refund-handover plants a regression to try replays with (docs/guide/replay.md):
# chats that mention a refund then stay with the bot.
REGRESSION = os.environ.get("BOT_REGRESSION", "")
WAIT_SECONDS = 25  # long-poll; the service holds the read at most 30 s
MAX_BACKOFF = 60


def log(msg, **fields):
    """One JSON line per event: ids and codes only, never message text or credentials."""
    print(json.dumps({"time": datetime.now(timezone.utc).isoformat(), "msg": msg, **fields}), flush=True)


def demo_setting(label):
    """A value from the demo's login file (written by `npm start`), e.g. 'Demo bot API key: vak_…'."""
    path = os.environ.get("DEMO_LOGIN_FILE", os.path.join(".data", "demo-login.txt"))
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip().startswith(label) and ":" in line:
                    value = line.split(":", 1)[1].split()
                    return value[0] if value else None
    except OSError:
        return None
    return None


def setting(name, label, prefix):
    value = os.environ.get(name) or demo_setting(label)
    if not value or not value.startswith(prefix):
        sys.exit(f"{name} is not set (and the demo's .data/demo-login.txt has no '{label}'): see README.md")
    return value


# ---------------------------------------------------------------------------------------------
# Signatures: Standard Webhooks, the same check a webhook receiver makes.


def verify(secret, item, tolerance=300):
    """True when one of the item's `v1,` signatures is the HMAC-SHA256 of id.timestamp.body and the
    timestamp (when the service signed this copy) is within five minutes of our clock."""
    b64 = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    key = base64.b64decode(b64.replace("-", "+").replace("_", "/") + "=" * (-len(b64) % 4))
    signed = f"{item['webhook_id']}.{item['webhook_timestamp']}.{item['body']}".encode("utf-8")
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    fresh = abs(time.time() - int(item["webhook_timestamp"])) <= tolerance
    # During a secret rotation there are two signatures, separated by a space: either one will do.
    return fresh and any(
        hmac.compare_digest(sig[3:], expected) for sig in item["webhook_signature"].split() if sig.startswith("v1,")
    )


# ---------------------------------------------------------------------------------------------
# The bot API: one envelope {status_code, description, response} for every answer.


class ApiError(Exception):
    def __init__(self, http_status, envelope, trxid):
        self.http_status = http_status
        self.status_code = envelope.get("status_code")
        self.envelope = envelope
        self.trxid = trxid
        super().__init__(f"{self.status_code or http_status} {envelope.get('description', '')} (trxid {trxid})")


class Api:
    def __init__(self, base_url, api_key):
        self.base = base_url.rstrip("/") + "/api/v1"
        self.api_key = api_key
        self.token = None
        self.renew_at = 0.0

    def _send(self, method, path, body=None, headers=None, timeout=30):
        """One HTTP call; answers (http status, envelope, headers). 429/503 wait as Retry-After says."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        hdrs = {"accept": "application/json", **(headers or {})}
        if data is not None:
            hdrs["content-type"] = "application/json"
        delay = 1
        while True:
            # urllib writes header names as given ("access_token"); HTTP names are case-insensitive.
            # A proxy in between must pass names with underscores (nginx: underscores_in_headers on).
            req = urllib.request.Request(self.base + path, data=data, method=method, headers=hdrs)
            try:
                with urllib.request.urlopen(req, timeout=timeout) as res:
                    return res.status, json.loads(res.read() or b"{}"), res.headers
            except urllib.error.HTTPError as err:
                raw = err.read()
                if err.code in (429, 503):
                    wait = retry_after(err.headers.get("Retry-After"), delay)
                    log("busy, waiting", http_status=err.code, seconds=wait, trxid=err.headers.get("trxid"))
                    time.sleep(wait)
                    delay = min(delay * 2, MAX_BACKOFF)
                    continue
                try:
                    envelope = json.loads(raw)
                except ValueError:
                    envelope = {"description": f"HTTP {err.code}"}
                return err.code, envelope, err.headers
            except (urllib.error.URLError, TimeoutError, ConnectionError) as err:
                log("service unreachable, retrying", error=type(err).__name__, seconds=delay)
                time.sleep(delay)
                delay = min(delay * 2, MAX_BACKOFF)

    def authorize(self):
        status, env, headers = self._send("POST", "/authorize", {"api_key": self.api_key})
        if status != 200:
            raise ApiError(status, env, headers.get("trxid"))
        self.token = env["response"]["access_token"]
        # Renew a minute before it expires; earlier tokens keep working until then.
        self.renew_at = time.monotonic() + max(0, env["response"]["expires_in"] - 60)
        log("authorized", expires_at=env["response"]["expires_at"])

    def call(self, method, path, body=None, headers=None, timeout=30):
        """The envelope's `response` of a 2xx answer; raises ApiError otherwise."""
        if self.token is None or time.monotonic() >= self.renew_at:
            self.authorize()
        for attempt in (1, 2):
            status, env, res_headers = self._send(method, path, body, {**(headers or {}), "access_token": self.token}, timeout)
            # 2003 unknown (a key rotated at once) or 2004 expired: a new token, then the call once more.
            if attempt == 1 and env.get("status_code") in (2003, 2004):
                self.authorize()
                continue
            if 200 <= status < 300:
                return env.get("response")
            raise ApiError(status, env, res_headers.get("trxid"))


def retry_after(value, fallback):
    """Seconds to wait from a Retry-After header (seconds or an HTTP date)."""
    if not value:
        return fallback
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        from email.utils import parsedate_to_datetime

        return max(0.0, (parsedate_to_datetime(value) - datetime.now(timezone.utc)).total_seconds())
    except (TypeError, ValueError):
        return fallback


# ---------------------------------------------------------------------------------------------
# The bot.


class Bot:
    def __init__(self, api, secret, cursor_file, handover_team):
        self.api = api
        self.secret = secret
        self.cursor_file = cursor_file
        self.handover_team = handover_team
        self.held = set()  # the chats this VA holds
        self.login_id = None
        self.stopping = False

    # The cursor: written after each handled event, read on start.
    def load_cursor(self):
        try:
            with open(self.cursor_file, encoding="utf-8") as f:
                return f.read().strip() or None
        except FileNotFoundError:
            return None

    def save_cursor(self, cursor):
        tmp = self.cursor_file + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(cursor)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.cursor_file)  # atomic: the file holds the old cursor or the new one

    def reply(self, chat_id, text, key):
        """Posts a reply. The Idempotency-Key makes a second try (after a crash) the same reply."""
        sent = self.api.call("POST", f"/chats/{q(chat_id)}/messages", {"type": "outbound", "text": text}, {"Idempotency-Key": key})
        log("replied", chat_id=chat_id, transid=sent["transid"])

    def team_id(self, name):
        for team in self.api.call("GET", "/teams"):
            if team["team_name"] == name:
                return team["team_id"]
        sys.exit(f'No team named "{name}" to hand over to: set HANDOVER_TEAM to one of GET /teams.')

    def open_refund_case(self, chat_id, replay):
        """The bot's one tool with an effect outside the chat: a refund case in the shop's system (here a
        log line). A replay's events carry "replay" and nobody acts on their chats, so it is stubbed."""
        if replay:
            log("refund case stubbed: a replay", chat_id=chat_id, replay_run_id=replay["run_id"])
        else:
            log("refund case opened", chat_id=chat_id)

    def answer(self, chat_id, message, replay=None):
        """Answers one customer message; keys come from its transid, so it is answered once."""
        transid = message["transid"]
        said = message.get("text") or ""
        refund = bool(MENTIONS_REFUND.search(said)) and REGRESSION != "no-refund-handover"
        if WANTS_HUMAN.search(said) or refund:
            text = (
                "A person from our team decides on refunds: connecting you now."
                if refund
                else "Connecting you with a person from our team. One moment, please."
            )
            self.reply(chat_id, text, f"handover-{transid}")
            if refund:
                self.open_refund_case(chat_id, replay)
            team = self.team_id(self.handover_team)
            try:
                self.api.call("PATCH", f"/internal/chats/{q(chat_id)}", {"transfer": {"teamid": team}})
            except ApiError:
                # An earlier try of this event may have handed it over already: then it is done.
                if self.api.call("GET", f"/chats/{q(chat_id)}").get("assignee") == self.login_id:
                    raise
            self.held.discard(chat_id)
            log("handed over", chat_id=chat_id, team_id=team)
            return
        self.reply(chat_id, 'Thanks, I have noted that. Type "agent" at any time to talk to a person.', f"reply-{transid}")

    def handle(self, event_id, event):
        kind, chat_id = event["event_type"], event["chat_id"]
        customer = [e["message"] for e in event.get("payload", {}).get("messages", []) if e["message"]["type"] == "inbound"]
        if kind == "chat.assigned":
            self.held.add(chat_id)
            if customer:
                self.answer(chat_id, customer[-1], event.get("replay"))
            else:
                self.reply(chat_id, "Hello! I am the demo bot. How can I help?", f"greet-{event_id}")
        elif kind == "message.received":
            if chat_id not in self.held:
                log("message for a chat not held, ignored", webhook_id=event_id, chat_id=chat_id)
            elif customer:
                self.answer(chat_id, customer[-1], event.get("replay"))
        elif kind in ("chat.unassigned", "chat.closed"):
            # Lost control: never write into this chat again (the service would refuse with 2043).
            self.held.discard(chat_id)
            log("chat left", webhook_id=event_id, chat_id=chat_id, event_type=kind)

    def reconcile(self, answer_waiting=False):
        """The chats this VA holds now, so events after a restart find them; with answer_waiting,
        also answers those where the customer wrote last (after an expired cursor lost events)."""
        self.login_id = self.api.call("GET", "/me")["login_id"]
        self.team_id(self.handover_team)  # fail now, not at the first handover, when it does not exist
        cursor = None
        while True:
            query = {"assignee": self.login_id, "status": "picked", "page_size": 100}
            if cursor:
                query["cursor"] = cursor
            page = self.api.call("GET", "/chats?" + urllib.parse.urlencode(query))
            for chat in page["chats"]:
                self.held.add(chat["chat_id"])
                last = chat["messages"][-1] if chat["messages"] else None
                if answer_waiting and last and last["type"] == "inbound":
                    self.answer(chat["chat_id"], last)
            cursor = page.get("next_cursor")
            if not cursor:
                break
        log("reconciled", login_id=self.login_id, chats_held=len(self.held))

    def run(self):
        self.reconcile()
        cursor = self.load_cursor()
        log("reading events", resume=cursor is not None)
        delay = 1
        while not self.stopping:
            query = {"limit": 100, "wait_seconds": WAIT_SECONDS}
            if cursor:
                query["after"] = cursor  # also acknowledges every event up to it
            try:
                page = self.api.call("GET", "/events?" + urllib.parse.urlencode(query), timeout=WAIT_SECONDS + 15)
            except ApiError as err:
                if err.http_status == 410:
                    # Older than what the service keeps: start again from the oldest it has.
                    oldest = (err.envelope.get("response") or {}).get("oldest_cursor")
                    log("cursor expired, resuming from the oldest kept", status_code=err.status_code, trxid=err.trxid)
                    cursor = oldest
                    self.reconcile(answer_waiting=True)  # events were lost: answer who is waiting
                    continue
                raise
            for item in page["events"]:
                if not verify(self.secret, item):
                    # A wrong secret, or not from the service: act on nothing, stop before the cursor moves.
                    sys.exit(f"event {item['webhook_id']}: signature check failed. Is VA_SIGNING_SECRET the VA's current secret?")
                event = json.loads(item["body"])
                while True:
                    try:
                        self.handle(item["webhook_id"], event)
                        break
                    except ApiError as err:
                        if err.http_status < 500:
                            # Refused for good (e.g. 2043: the chat was taken meanwhile): log and go on.
                            log("refused", webhook_id=item["webhook_id"], chat_id=event["chat_id"], status_code=err.status_code, trxid=err.trxid)
                            break
                        log("failed, retrying", webhook_id=item["webhook_id"], status_code=err.status_code, trxid=err.trxid, seconds=delay)
                        time.sleep(delay)
                        delay = min(delay * 2, MAX_BACKOFF)
                delay = 1
                cursor = item["cursor"]
                self.save_cursor(cursor)
                log("handled", webhook_id=item["webhook_id"], event_type=event["event_type"], chat_id=event["chat_id"])
            if page["next_cursor"] and page["next_cursor"] != cursor:
                cursor = page["next_cursor"]
                self.save_cursor(cursor)


def q(value):
    return urllib.parse.quote(str(value), safe="")


def main():
    base_url = setting("VA_BASE_URL", "Service", "http")
    api_key = setting("VA_API_KEY", "Demo bot API key", "vak_")
    secret = setting("VA_SIGNING_SECRET", "Demo bot signing secret", "whsec_")
    cursor_file = os.environ.get("CURSOR_FILE", "bot-cursor.txt")
    if REGRESSION not in ("", "no-refund-handover"):
        sys.exit(f'BOT_REGRESSION is "{REGRESSION}": the one regression the bot can plant is no-refund-handover.')
    bot = Bot(Api(base_url, api_key), secret, cursor_file, os.environ.get("HANDOVER_TEAM", "Support"))

    def stop(*_):
        log("stopping")
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    try:
        bot.run()
    except KeyboardInterrupt:
        stop()


if __name__ == "__main__":
    main()
