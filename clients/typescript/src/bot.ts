// A bot on the types openapi-typescript generates from /schema/openapi.json (src/schema.d.ts):
// it opens a table of four seats, takes them all, and plays each seat's legal commands at random
// until the game is over. Usage: node dist/bot.js <api base url> [seed]
import type { components } from "./schema";

type Schemas = components["schemas"];
type View = Schemas["View"];
type Command = View["legal_commands"][number];

// Node's own globals, declared here so that no @types package is needed
declare const process: { argv: string[]; exitCode?: number };

const api = process.argv[2];
let seed = Number(process.argv[3] ?? "7");

// mulberry32: the same choices for a seed, in 32-bit integer arithmetic (a multiplication in
// doubles past 2^53 drops low bits, and a generator built on one falls into short cycles)
function random(n: number): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) % n;
}

async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; data: T }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token !== undefined) headers["Authorization"] = `Bearer ${token}`;
  const answer = await fetch(api + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  return { status: answer.status, data: (text ? JSON.parse(text) : null) as T };
}

function expect(got: { status: number; data: unknown }, ...statuses: number[]): void {
  if (!statuses.includes(got.status)) {
    throw new Error(`answered ${got.status}: ${JSON.stringify(got.data)}`);
  }
}

// the seat a token holds, once the table has answered its taking (403 until then)
async function seatOf(table: string, token: string): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const got = await call<View>("GET", `${table}/view`, undefined, token);
    if (got.status === 200 && got.data.you) return got.data.you.seat;
    await new Promise((rest) => setTimeout(rest, 100));
  }
  throw new Error(`no seat for a token at ${table}`);
}

async function main(): Promise<void> {
  const create: Schemas["CreateTable"] = { seats: 4 };
  // 202: recorded, not answered yet (the table, the seat, the start come a moment later)
  const created = await call<Schemas["TableCreated"]>("POST", "/tables", create);
  expect(created, 201, 202);
  const table = `/tables/${created.data.table_id}`;
  const tokens: string[] = [];
  for (let i = 0; i < created.data.seats; i++) {
    const name: Schemas["TakeSeat"] = { name: `ts${i}`, bot: true }; // a program plays it: said
    const granted = await call<Schemas["SeatGranted"] | Schemas["SeatLater"]>(
      "POST",
      `${table}/seats`,
      name,
    );
    expect(granted, 201, 202);
    const seat = "seat" in granted.data ? granted.data.seat : await seatOf(table, granted.data.token);
    tokens[seat] = granted.data.token;
  }
  expect(await call<View>("POST", `${table}/start`, undefined, tokens[0]), 200, 202);
  let sent = 0;
  let last: View | undefined;
  // until the game is over (or five minutes): a seat left only templates waits for its deadline,
  // so a round where no seat can act rests a moment instead of asking again at once
  const until = Date.now() + 300_000;
  let idle = 0;
  for (let step = 0; Date.now() < until; step++) {
    const seat = step % tokens.length;
    const got = await call<View>("GET", `${table}/view`, undefined, tokens[seat]);
    expect(got, 200);
    last = got.data;
    if (last.status === "finished") break;
    // a template (a play_equipment with `choose`) is left for a bot that fills it
    const ready = last.must_act
      ? last.legal_commands.filter((c: Command) => !("choose" in c && c.choose))
      : [];
    if (ready.length === 0) {
      idle += 1;
      if (idle >= tokens.length) {
        idle = 0;
        await new Promise((rest) => setTimeout(rest, 100));
      }
      continue;
    }
    idle = 0;
    // a command_id of its own: sent again after an unknown outcome (503), it is recorded once
    const command = { ...ready[random(ready.length)], command_id: `ts-${step}` } as Command;
    let answer = await call<View | Schemas["Position"] | Schemas["Problem"]>(
      "POST",
      `${table}/commands`,
      command,
      tokens[seat],
    );
    for (let tries = 1; answer.status === 503 && tries < 5; tries++) {
      await new Promise((rest) => setTimeout(rest, 500 * 2 ** tries * Math.random()));
      answer = await call("POST", `${table}/commands`, command, tokens[seat]);
    }
    expect(answer, 200, 202, 409);
    sent += 1;
  }
  console.log(
    JSON.stringify({
      table: created.data.table_id,
      status: last?.status,
      winners: last?.winners,
      win_team: last?.win_team,
      sent,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
