// The web application of the `app` workload's Node rows (app = node), as
// gVisor's images/benchmarks/node: on start it stores 100 random 1 KiB
// alphanumeric texts under the keys 0..99 of a redis-server; each GET
// then reads four random keys and answers with a page that shows them.
// Node's own http module and the node-redis client (Debian's node-redis):
// no express and no handlebars, so the page is rendered by render().
//
//   node node-server.js [REDIS_PORT [PORT]]     (127.0.0.1; 6379, 8080)
//
// Unlike gVisor's index.js, which renders before its GET callbacks run
// (its pages carry no text), a page here waits for its four texts.
'use strict';

const http = require('http');
const crypto = require('crypto');
const { createClient } = require('redis');

const redisPort = Number(process.argv[2] || 6379);
const port = Number(process.argv[3] || 8080);
const KEYS = 100;
const TEXT_LEN = 1024;
const PER_PAGE = 4;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// A random alphanumeric string of len characters.
function randomBody(len) {
	const b = crypto.randomBytes(len);
	let s = '';

	for (let i = 0; i < len; i++)
		s += ALNUM[b[i] % ALNUM.length];
	return s;
}

function escapeHtml(s) {
	return String(s).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) +
	    ';');
}

// The page gVisor's index.hbs renders: one paragraph per text.
function render(texts) {
	return '<!DOCTYPE html>\n<html>\n<body>\n' +
	    texts.map((t) => '    <p>' + escapeHtml(t) + '</p>\n').join('') +
	    '</body>\n</html>\n';
}

async function main() {
	const client = createClient({
		socket: { host: '127.0.0.1', port: redisPort },
	});

	client.on('error', (e) => {
		console.error('node-server: redis: ' + e.message);
		process.exit(1);
	});
	await client.connect();
	for (let i = 0; i < KEYS; i++)
		await client.set(String(i), randomBody(TEXT_LEN));

	const server = http.createServer(async (req, res) => {
		try {
			const keys = [];

			for (let i = 0; i < PER_PAGE; i++)
				keys.push(String(Math.floor(Math.random() * KEYS)));
			const texts = await Promise.all(keys.map((k) =>
			    client.get(k)));
			if (texts.some((t) => t === null))
				throw new Error('a key is missing from redis');
			const body = render(texts);
			res.writeHead(200, {
				'Content-Type': 'text/html; charset=utf-8',
				'Content-Length': Buffer.byteLength(body),
			});
			res.end(body);
		} catch (e) {
			res.writeHead(500, { 'Content-Type': 'text/plain' });
			res.end(String(e) + '\n');
		}
	});
	server.on('error', (e) => {
		console.error('node-server: ' + e.message);
		process.exit(1);
	});
	server.listen(port, '127.0.0.1');
	const stop = () => server.close(() => client.quit().finally(() =>
	    process.exit(0)));
	process.on('SIGTERM', stop);
	process.on('SIGINT', stop);
}

main().catch((e) => {
	console.error('node-server: ' + (e && e.stack ? e.stack : e));
	process.exit(1);
});
