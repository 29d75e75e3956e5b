/**
 * Limits under a burst (issue 6): 50 requests at once against a real server process on a fresh
 * SQLite database, and how many got through each limit. Part of `npm run bench`; alone:
 * `npx tsx bench/burst.ts`. Prints figures, never fails on them (the server tests assert the limits).
 */
import { startBenchServer } from './server'

const BURST = 50
/** The demo patient seeded in demo mode (README, Demo accounts). */
const DEMO_PATIENT = '13800000001'

async function fire(
  url: string,
  body: (i: number) => object,
  address: (i: number) => string,
): Promise<{ status: number; error: string }[]> {
  return Promise.all(
    Array.from({ length: BURST }, async (_, i) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address(i) },
        body: JSON.stringify(body(i)),
      })
      const json = (await res.json()) as { error?: string | null }
      return { status: res.status, error: json.error ?? '' }
    }),
  )
}

/** Prints one table row per limit: how many of a burst of 50 got through. */
export async function printBursts(): Promise<void> {
  // Loopback is the trusted proxy hop, so each burst can name its client address.
  const server = await startBenchServer({ TRUST_PROXY: '1' })
  try {
    console.log(`\n## Limits under a burst of ${BURST} (fresh SQLite, one process)\n`)

    const logins = await fire(
      `${server.url}/sso/oauth2/token`,
      () => ({
        grant_type: 'password',
        username: DEMO_PATIENT,
        password: 'wrong1234',
      }),
      () => '203.0.113.1',
    )
    // Checked = answered 手机号或密码错误 (400), plus the one check whose failure set the lock (429);
    // every other 429 was refused before argon2.
    const wrong = logins.filter((a) => a.status === 400 && a.error.startsWith('手机号或密码错误'))
    const locked = logins.some((a) => a.status === 429) ? 1 : 0
    const checked = wrong.length + locked
    console.log(
      `| login burst ${BURST} (wrong password, one phone) | → ${checked} checked (limit 5) |`,
    )

    const mobile = '13700000050'
    const sends = await fire(
      `${server.url}/sso/sms/send`,
      () => ({ mobile, purpose: 'login' }),
      (i) => `198.51.100.${i + 1}`,
    )
    const sent = sends.filter((a) => a.status === 200).length
    console.log(
      `| SMS burst ${BURST} (one phone, one purpose) | → ${sent} sent (limit 1 per 60 s) |`,
    )

    const spread = await fire(
      `${server.url}/sso/sms/send`,
      (i) => ({ mobile: `1360000${String(i).padStart(4, '0')}`, purpose: 'register' }),
      () => '203.0.113.2',
    )
    const fromOne = spread.filter((a) => a.status === 200).length
    console.log(
      `| SMS burst ${BURST} (one address, ${BURST} phones) | → ${fromOne} sent (limit 20 per hour) |`,
    )
  } finally {
    await server.stop()
  }
}

if (require.main === module) {
  printBursts().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
