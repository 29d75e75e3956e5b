import { dateRangeOf, modalityName } from '../filters'
import { forgetUnlockTicket, rememberUnlockTicket, unlockTicket } from '../unlock-ticket'

describe('unlock ticket (memory only)', () => {
  afterEach(forgetUnlockTicket)

  it('is reused while it has time left, and not in its last 15 seconds', () => {
    rememberUnlockTicket('T', 600, 1_000_000)
    expect(unlockTicket(1_000_000 + 584_000)).toBe('T')
    expect(unlockTicket(1_000_000 + 586_000)).toBeNull()
  })

  it('is gone once forgotten (the server also binds it to the login session)', () => {
    rememberUnlockTicket('T', 600, 0)
    forgetUnlockTicket()
    expect(unlockTicket(1)).toBeNull()
  })
})

describe('filters', () => {
  it('turns a date preset into an inclusive range of calendar days', () => {
    const today = new Date('2026-03-31T08:00:00+08:00')
    expect(dateRangeOf('', today)).toEqual({})
    expect(dateRangeOf('1m', today)).toEqual({ dateFrom: '2026-02-28', dateTo: '2026-03-31' })
    expect(dateRangeOf('1y', today)).toEqual({ dateFrom: '2025-03-31', dateTo: '2026-03-31' })
  })

  it('names modalities in words a patient knows, leaving unknown codes as they are', () => {
    expect(['MR', 'dx', 'US', 'XYZ'].map(modalityName)).toEqual(['磁共振', 'X线', '超声', 'XYZ'])
  })
})
