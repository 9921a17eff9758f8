"""A small legacy store with every edge OpenClaw's import treats specially (IMPORT.md):
legacy delivery and flat fields, v1/v2/v3 headers, a file without header, a malformed line, a
duplicate line, a topic transcript, trajectory and checkpoint files, a missing transcript, an
ACP entry without updatedAt, an orphan transcript, an unrelated .jsonl, entries sharing one
transcript file, a sessionFile inside sessions/ that is gone while <sessionId>.jsonl is there,
invalid entries.

    python3 make-edge-legacy.py ROOT     (writes ROOT/.openclaw)
"""
import json, os, sys, hashlib
root = sys.argv[1]
oc = os.path.join(root, '.openclaw')
def w(p, s, mtime=None):
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, 'w').write(s)
    if mtime: os.utime(p, (mtime, mtime))
def jl(events): return ''.join(json.dumps(e, separators=(',',':'))+'\n' for e in events)
json.dump({"agents":{"ownership":"explicit","defaults":{"systemAgent":{"agentId":"main"}},
  "entries":{"main":{"workspace":"~/.openclaw/workspace-main"},"bad":{"workspace":"~/.openclaw/workspace-bad"}}}},
  open(os.makedirs(oc, exist_ok=True) or os.path.join(oc,'openclaw.json'),'w'), indent=2)
S = os.path.join(oc, 'agents/main/sessions')
B = os.path.join(oc, 'agents/bad/sessions')
big = "lorem ipsum dolor sit amet " * 80
store = {}
# 1: legacy delivery + provider/room + createdBy + extra legacy fields; updatedAt differs from last event
sid='aaaaaaaa-0000-4000-8000-000000000001'
store['agent:main:telegram:direct:42'] = {"sessionId":sid,"updatedAt":1780000099000,"sessionStartedAt":1780000000000,
  "sessionFile":f"/home/user/.openclaw/agents/main/sessions/{sid}.jsonl","provider":"telegram","room":"r1",
  "channel":"telegram","lastChannel":"telegram","lastTo":"42","lastAccountId":"default",
  "origin":{"provider":"telegram","chatType":"direct","to":"42","accountId":"default","label":"Bob"},
  "deliveryContext":{"channel":"telegram","to":"42","accountId":"default"},
  "createdBy":{"id":"u1"},"createdVia":"operator","label":"  L1  ","displayName":"Disp",
  "pendingFinalDeliveryText":"hello","pendingFinalDeliveryCreatedAt":1780000001000,
  "fallbackNoticeSelectedModel":"a/b","fallbackNoticeActiveModel":"c/d","memoryFlushCompactionCount":2,
  "icon":"not-an-icon!!","archiveReason":"manual","owner":{"x":1},"participants":[1],"transcriptPath":"/x",
  "skillsSnapshot":{"resolvedSkills":[1],"prompt":"p"}, "zzz":1}
w(f'{S}/{sid}.jsonl', jl([
  {"type":"session","version":3,"id":sid,"timestamp":"2026-05-28T20:00:00.000Z","cwd":"/home/user/ws"},
  {"type":"message","id":"m1","parentId":None,"timestamp":"2026-05-28T20:00:01Z","message":{"role":"user","content":"hi there","timestamp":1}},
  {"type":"message","id":"m2","parentId":"m1","timestamp":1780000002500,"message":{"role":"assistant","content":"string content","provider":"openai-codex","api":"openai-codex-responses"}},
  {"type":"message","id":"m3","parentId":"m2","message":{"role":"user","content":[{"type":"text","text":"no timestamp"}]}},
  {"type":"message","id":"m4","parentId":"m3","timestamp":"Thu, 28 May 2026 20:00:04 GMT","message":{"role":"assistant","content":[{"type":"text","text":big}]}},
  {"type":"message","id":"m5","parentId":"m4","timestamp":"2026-05-28T20:00:05.000Z","message":{"role":"user","content":[{"type":"text","text":"caf\u00e9 "+big}]}},
  {"type":"message","id":"m5","parentId":"m4","timestamp":"2026-05-28T20:00:05.000Z","message":{"role":"user","content":[{"type":"text","text":"caf\u00e9 "+big}]}},
  {"type":"message","id":"m6","parentId":"m5","timestamp":"2026-05-28T20:00:06.000Z","message":{"role":"custom","content":"hooky"}},
  {"type":"message","id":"m7","parentId":"m6","timestamp":"2026-05-28T20:00:07.000Z","message":{"role":"user","content":"x","excludeFromContext":True,"idempotencyKey":" k1 "}},
  {"type":"weird","foo":1},
]).replace('caf\u00e9', 'caf\\u00e9', 1), mtime=1780000500.123456)
# 2: v1 transcript, topic-style file
sid2='aaaaaaaa-0000-4000-8000-000000000002'
tf=f'{sid2}-topic-7.jsonl'
store['agent:main:telegram:group:-1001:topic:7'] = {"sessionId":sid2,"updatedAt":1780000200000,"sessionFile":f"/home/user/.openclaw/agents/main/sessions/{tf}","chatType":"group"}
w(f'{S}/{tf}', jl([
  {"type":"session","id":sid2,"timestamp":"2026-05-28T21:00:00.000Z","cwd":"/w","extra":1},
  {"type":"message","timestamp":"2026-05-28T21:00:01.000Z","message":{"role":"user","content":"v1 a"}},
  {"type":"message","timestamp":"2026-05-28T21:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"v1 b"}]}},
  {"type":"message","timestamp":"2026-05-28T21:00:03.000Z","message":{"role":"hookMessage","content":"hook!"}},
  {"type":"compaction","timestamp":"2026-05-28T21:00:04.000Z","summary":"s","firstKeptEntryIndex":2,"tokensBefore":10},
  {"type":"message","timestamp":"2026-05-28T21:00:05.000Z","message":{"role":"user","content":"v1 c"}},
]), mtime=1780000600)
# trajectory files for 2 (named after transcript)
w(f'{S}/{sid2}-topic-7.trajectory.jsonl', '{"t":1}\n')
w(f'{S}/{sid2}-topic-7.trajectory-path.json', '{"p":1}\n')
# 3: v2 transcript with ids + hookMessage; checkpoint + trajectory
sid3='aaaaaaaa-0000-4000-8000-000000000003'
store['Agent:Main:Weird Key '] = {"sessionId":sid3,"updatedAt":1780000300000,"chatType":"direct"}
w(f'{S}/{sid3}.jsonl', jl([
  {"type":"session","version":2,"sessionId":sid3,"timestamp":"2026-05-28T22:00:00.000Z"},
  {"type":"message","id":"x1","parentId":None,"timestamp":"2026-05-28T22:00:01.000Z","message":{"role":"user","content":"v2 a"}},
  {"type":"message","id":"x2","parentId":"x1","timestamp":"2026-05-28T22:00:02.000Z","message":{"role":"hookMessage","content":"hk"}},
]), mtime=1780000700)
w(f'{S}/{sid3}.checkpoint.11111111-2222-4333-8444-555555555555.jsonl', jl([{"type":"session","version":3,"id":sid3}]))
w(f'{S}/{sid3}.trajectory.jsonl', '{"t":3}\n')
# 4: missing transcript
store['agent:main:missing'] = {"sessionId":'aaaaaaaa-0000-4000-8000-000000000004',"updatedAt":1780000400000}
# 5: acp + no updatedAt
sid5='aaaaaaaa-0000-4000-8000-000000000005'
store['agent:main:acp:x'] = {"sessionId":sid5,"sessionStartedAt":1780000500000,"acp":{"backend":"acpx","agent":"codex"}}
w(f'{S}/{sid5}.jsonl', jl([{"type":"session","version":3,"id":sid5,"timestamp":"2026-05-28T23:00:00.000Z","cwd":"/w"}]), mtime=1780000800)
# orphan transcript
sid6='aaaaaaaa-0000-4000-8000-000000000006'
w(f'{S}/{sid6}.jsonl', jl([{"type":"session","version":3,"id":sid6,"timestamp":"2026-05-29T00:00:00.000Z","cwd":"/w"},
  {"type":"message","id":"o1","parentId":None,"timestamp":"2026-05-29T00:00:01.000Z","message":{"role":"user","content":"orphan"}}]), mtime=1780000900)
# unrelated jsonl w/o header
w(f'{S}/notes.jsonl', '{"a":1}\n', mtime=1780000950)
w(f'{S}/{sid}.jsonl.reset.2026-06-01T08-00-00.000Z', '{}\n')
# 7, 8: two more entries naming entry 1's transcript file (one sessionFile, three sessions)
for n in (7, 8):
  store[f'agent:main:shared-{n}'] = {"sessionId":f'aaaaaaaa-0000-4000-8000-00000000000{n}',"updatedAt":1780000990000+n,
    "sessionFile":f"/home/user/.openclaw/agents/main/sessions/{sid}.jsonl"}
# 9: sessionFile names a file inside sessions/ that is not there, while <sessionId>.jsonl is
# (OpenClaw's import falls back to it by its header's id: 7 events)
sid9='aaaaaaaa-0000-4000-8000-000000000009'
store['agent:main:renamed-file'] = {"sessionId":sid9,"updatedAt":1780001900000,
  "sessionFile":"/home/user/.openclaw/agents/main/sessions/renamed-away.jsonl"}
w(f'{S}/{sid9}.jsonl', jl([{"type":"session","version":3,"id":sid9,"timestamp":"2026-05-29T02:00:00.000Z","cwd":"/w"}] +
  [{"type":"message","id":f"r{i}","parentId":(f"r{i-1}" if i else None),"timestamp":f"2026-05-29T02:00:0{i+1}.000Z",
    "message":{"role":("user" if i % 2 == 0 else "assistant"),"content":f"renamed {i}"}} for i in range(6)]), mtime=1780001950)
json.dump(store, open(f'{S}/sessions.json','w'), indent=2)
# ---- bad agent
bstore = {}
bstore['agent:bad:nosid'] = {"updatedAt":1}
bstore['agent:bad:notobj'] = 5
sidm='bbbbbbbb-0000-4000-8000-000000000001'
bstore['agent:bad:malformed'] = {"sessionId":sidm,"updatedAt":1780001000000}
w(f'{B}/{sidm}.jsonl', jl([{"type":"session","version":3,"id":sidm,"timestamp":"2026-05-29T01:00:00.000Z","cwd":"/w"},
  {"type":"message","id":"p1","parentId":None,"timestamp":"2026-05-29T01:00:01.000Z","message":{"role":"user","content":"ok"}}]) + '{"broken": \n' +
  jl([{"type":"message","id":"p2","parentId":"p1","timestamp":"2026-05-29T01:00:02.000Z","message":{"role":"user","content":"after"}}]), mtime=1780001100)
sidn='bbbbbbbb-0000-4000-8000-000000000002'
bstore['agent:bad:noheader'] = {"sessionId":sidn,"updatedAt":1780001200000}
w(f'{B}/{sidn}.jsonl', jl([{"type":"message","id":"q1","parentId":None,"timestamp":"2026-05-29T01:00:01.000Z","message":{"role":"user","content":"nohdr"}},
   {"type":"message","id":"q2","parentId":"q1","timestamp":"2026-05-29T01:00:02.000Z","message":{"role":"assistant","content":"r"}}]), mtime=1780001300)
json.dump(bstore, open(f'{B}/sessions.json','w'), indent=2)
