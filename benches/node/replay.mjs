// The Node side of the headline replay benchmark: a stand-in for VS Code's own reader
// of a chat session log (`ObjectMutationLog.read` in
// src/vs/workbench/contrib/chat/common/model/objectMutationLog.ts), with the same
// semantics, followed by `JSON.stringify` of the state, as `examples/replay` does in Rust.
//
//   node benches/node/replay.mjs FILE > state.json
//
// Written from the semantics in vscode-mutation-log.md §3 and the reader's source
// (read, not copied): split the bytes at LF, skip empty segments, decode each line as
// UTF-8 (invalid bytes become U+FFFD, as Buffer.toString does), JSON.parse it, then
// kind 0 replaces the state, 1 sets, 2 pushes (`arr.length = i` first), 3 sets
// undefined. The first error throws and the file is refused, as in VS Code.
// On stderr: the seconds spent reading, replaying and stringifying.

import { readFileSync, writeSync } from 'node:fs';

function applySet(state, path, value) {
	if (path.length === 0) {
		return; // VS Code: "root replacement handled by caller"
	}
	let cur = state;
	for (let i = 0; i < path.length - 1; i++) {
		cur = cur[path[i]];
	}
	cur[path[path.length - 1]] = value;
}

function applyPush(state, path, values, startIndex) {
	let cur = state;
	for (let i = 0; i < path.length - 1; i++) {
		cur = cur[path[i]];
	}
	const key = path[path.length - 1];
	const arr = cur[key] || [];
	if (startIndex !== undefined) {
		arr.length = startIndex;
	}
	if (values && values.length > 0) {
		arr.push(...values);
	}
	cur[key] = arr;
}

function read(content) {
	let state;
	let lines = 0;
	let start = 0;
	const len = content.length;
	while (start < len) {
		let end = content.indexOf(10, start);
		if (end === -1) {
			end = len;
		}
		if (end > start) {
			lines++;
			const entry = JSON.parse(content.toString('utf8', start, end));
			switch (entry.kind) {
				case 0:
					state = entry.v;
					break;
				case 1:
				case 2:
				case 3:
					if (state === undefined) {
						throw new Error('Log file is missing an initial entry');
					}
					if (entry.kind === 2) {
						applyPush(state, entry.k, entry.v, entry.i);
					} else {
						applySet(state, entry.k, entry.kind === 1 ? entry.v : undefined);
					}
					break;
				default:
					throw new Error('Unreachable');
			}
		}
		start = end + 1;
	}
	if (lines === 0) {
		throw new Error('Empty log file');
	}
	return state;
}

const file = process.argv[2];
if (!file) {
	process.stderr.write('usage: node replay.mjs FILE\n');
	process.exit(2);
}
const t0 = process.hrtime.bigint();
const bytes = readFileSync(file);
const t1 = process.hrtime.bigint();
const state = read(bytes);
const t2 = process.hrtime.bigint();
const json = JSON.stringify(state) ?? 'null';
const t3 = process.hrtime.bigint();
// one synchronous write of the whole text (stdout may be a file or a pipe)
const out = Buffer.from(json + '\n', 'utf8');
let off = 0;
while (off < out.length) {
	try {
		off += writeSync(1, out, off, out.length - off);
	} catch (e) {
		if (e.code !== 'EAGAIN') {
			throw e;
		}
	}
}
const t4 = process.hrtime.bigint();
const s = (a, b) => (Number(b - a) / 1e9).toFixed(3);
process.stderr.write(`node: read ${s(t0, t1)} s, replay ${s(t1, t2)} s, stringify ${s(t2, t3)} s, write ${s(t3, t4)} s\n`);
