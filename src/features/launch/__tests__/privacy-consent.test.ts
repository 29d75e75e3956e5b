import {
  acceptPolicy,
  formatUpdatedAt,
  modeFromParams,
  refusePolicy,
  splitParagraphs,
  type ConsentDeps,
} from '../privacy-consent'

function fakeConsentDeps(canExit: boolean) {
  const seen = {
    accepted: [] as string[],
    tabs: [] as string[],
    pages: [] as string[],
    exited: false,
  }
  const deps: ConsentDeps = {
    acceptVersion: (version) => seen.accepted.push(version),
    switchTab: (url) => {
      seen.tabs.push(url)
    },
    reLaunch: (url) => {
      seen.pages.push(url)
    },
    exitApp: async () => {
      seen.exited = canExit
      return canExit
    },
  }
  return { deps, seen }
}

describe('privacy page mode', () => {
  it('reads consent, version and blocked from the query', () => {
    expect(modeFromParams({})).toEqual({ kind: 'read' })
    expect(modeFromParams({ consent: '1', version: '2024.06' })).toEqual({
      kind: 'consent',
      version: '2024.06',
    })
    expect(modeFromParams({ consent: '1' })).toEqual({ kind: 'consent', version: null })
    expect(modeFromParams({ blocked: 'refused' })).toEqual({ kind: 'blocked', reason: 'refused' })
    expect(modeFromParams({ blocked: 'other' })).toEqual({ kind: 'read' })
  })
})

describe('同意并继续', () => {
  it('stores the version the launch check compared, then opens the home tab', async () => {
    const { deps, seen } = fakeConsentDeps(true)
    await acceptPolicy(deps, { kind: 'consent', version: '2024.06' }, { version: 'text-v' })
    expect(seen.accepted).toEqual(['2024.06'])
    expect(seen.tabs).toEqual(['/pages/main/main'])
  })

  it('offline launch: stores the version of the text the user read', async () => {
    const { deps, seen } = fakeConsentDeps(true)
    await acceptPolicy(deps, { kind: 'consent', version: null }, { version: '7' })
    expect(seen.accepted).toEqual(['7'])
  })
})

describe('不同意', () => {
  it('leaves the mini-program', async () => {
    const { deps, seen } = fakeConsentDeps(true)
    await refusePolicy(deps)
    expect(seen.exited).toBe(true)
    expect(seen.accepted).toEqual([])
    expect(seen.pages).toEqual([])
  })

  it('where the app cannot close (H5), shows the blocked state', async () => {
    const { deps, seen } = fakeConsentDeps(false)
    await refusePolicy(deps)
    expect(seen.pages).toEqual(['/pages/privacyPolicy/privacyPolicy?blocked=refused'])
  })
})

describe('policy text', () => {
  it('splits blank-line separated paragraphs and drops empty ones', () => {
    expect(splitParagraphs('第一段\n续行\r\n\r\n第二段\n\n\n  \n第三段\n')).toEqual([
      '第一段\n续行',
      '第二段',
      '第三段',
    ])
  })

  it('shows the update date as yyyy-mm-dd', () => {
    // Midday UTC: the same calendar day in every time zone the test machine may use.
    expect(formatUpdatedAt('2024-06-01T06:00:00.000Z')).toBe('2024-06-01')
    expect(formatUpdatedAt('不是日期')).toBe('不是日期')
  })
})
