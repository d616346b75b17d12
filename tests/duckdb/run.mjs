// run.mjs - run one SQL file in real DuckDB over billing CSV files and
// print the result as CSV (header row; NULL as an empty field), for the
// tests that check ebsize's generated SQL against its C analysis.
//
//   node tests/duckdb/run.mjs --sql FILE --table NAME [--athena] CSV...
//
// The CSV files (plain or .gz) become a view NAME read as text
// (all_varchar), the way a user would point DuckDB at an export.
// --athena applies the documented mapping that lets the Athena variant run
// here:
//   * legacy CUR columns get the names the CUR Athena integration gives
//     them (lineItem/UsageType -> line_item_usage_type), as the table in
//     Athena has them;
//   * Trino's from_iso8601_timestamp(text) becomes a DuckDB macro with the
//     same meaning (UTC), since DuckDB has no such function.
// Everything else in the Athena SQL runs unchanged.
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

function usage(msg) {
	process.stderr.write(`run.mjs: ${msg}\n`);
	process.exit(2);
}

const args = process.argv.slice(2);
let sqlFile = null, table = null, athena = false;
const files = [];
for (let i = 0; i < args.length; i++) {
	if (args[i] === '--sql') sqlFile = args[++i];
	else if (args[i] === '--table') table = args[++i];
	else if (args[i] === '--athena') athena = true;
	else files.push(args[i]);
}
if (!sqlFile || !table || !files.length) usage('need --sql FILE --table NAME CSV...');
if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(table)) usage(`bad table name '${table}'`);

// lineItem/UsageType -> line_item_usage_type (as billing_sql.c's
// athena_cur_name, and as Athena's CUR integration names the columns)
function athenaName(s) {
	let o = '';
	for (let i = 0; i < s.length; i++) {
		const c = s[i], p = i ? s[i - 1] : '';
		if (c === '/' || c === ':') { o += '_'; continue; }
		if (/[A-Z]/.test(c) && i > 0 && p !== '/' && /[a-z0-9]/.test(p)) o += '_';
		o += c.toLowerCase();
	}
	return o;
}

const lit = (s) => `'${s.replace(/'/g, "''")}'`;
const ident = (s) => `"${s.replace(/"/g, '""')}"`;

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run("SET TimeZone = 'UTC'");
const src = `read_csv([${files.map(lit).join(', ')}], header = true, ` +
	`all_varchar = true, delim = ',', quote = '"', escape = '"', ` +
	`union_by_name = true)`;
if (athena) {
	const cols = (await con.runAndReadAll(`DESCRIBE SELECT * FROM ${src}`))
		.getRowObjectsJson().map((r) => r.column_name);
	const sel = cols.map((c) => c.includes('/') ?
		`${ident(c)} AS ${ident(athenaName(c))}` : ident(c)).join(', ');
	await con.run(`CREATE VIEW ${table} AS SELECT ${sel} FROM ${src}`);
	await con.run('CREATE MACRO from_iso8601_timestamp(s) AS ' +
		"timezone('UTC', try_cast(s AS TIMESTAMPTZ))");
} else {
	await con.run(`CREATE VIEW ${table} AS SELECT * FROM ${src}`);
}
const reader = await con.runAndReadAll(readFileSync(sqlFile, 'utf8'));
const names = reader.columnNames();
const csvField = (v) => {
	if (v === null || v === undefined) return '';
	const s = String(v);
	return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const out = [names.map(csvField).join(',')];
for (const row of reader.getRowsJson())
	out.push(row.map(csvField).join(','));
process.stdout.write(out.join('\n') + '\n');
