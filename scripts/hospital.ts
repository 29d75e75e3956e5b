/**
 * `npm run hospital -- add|key|revoke|list …`: hospitals and their API keys, against the server's
 * database (DATABASE_URL) and secret (SECRET_KEY). See server/README.md, "Hospitals and API keys".
 */
import { runHospitalCli } from '../server/src/hospital-cli'

runHospitalCli(
  process.argv.slice(2),
  process.env,
  (line) => console.log(line),
  (line) => console.error(line),
).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(error)
    process.exitCode = 1
  },
)
