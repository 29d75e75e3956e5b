import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { AppFeature } from '@contract/main/apps'
import type { DB } from '../../db'

/*
 * The apps page (应用中心): which features are on, their names, icons and order, from the
 * database, so an operator switches one off without a release (contract/main/operator.ts
 * operatorSetFeature). The defaults below are written once per database, outside demo mode too
 * (they are the product, not demo data); a key already there is never overwritten, so an
 * operator's switch survives every restart.
 */

export const FEATURE_ICONS_DIR = path.join(__dirname, 'icons')

interface DefaultFeature {
  key: string
  name: string
  link: AppFeature['link']
}

export const DEFAULT_FEATURES: readonly DefaultFeature[] = [
  { key: 'articles', name: '健康资讯', link: { route: 'infoList', params: {} } },
  { key: 'videos', name: '健康讲座', link: { route: 'videoShow', params: {} } },
  { key: 'firstAid', name: '急救讲堂', link: { route: 'videoShowJJ', params: {} } },
  { key: 'diet', name: '药膳食疗', link: { route: 'videoShowYs', params: {} } },
  { key: 'search', name: '搜索', link: { route: 'search', params: {} } },
  { key: 'favourites', name: '我的收藏', link: { route: 'collectList', params: {} } },
  { key: 'feedback', name: '意见反馈', link: { route: 'feedback', params: {} } },
  { key: 'hospitals', name: '数据切换中心', link: { route: 'hospitalList', params: {} } },
]

export const iconPathOf = (key: string) => `/media/icons/${key}.svg`

/** Idempotent, safe with several processes (insert … on conflict do nothing). */
export async function ensureFeatures(db: DB, now: Date): Promise<number> {
  let inserted = 0
  for (const [order, feature] of DEFAULT_FEATURES.entries()) {
    const result = await db
      .insertInto('features')
      .values({
        key: feature.key,
        name: feature.name,
        icon_path: iconPathOf(feature.key),
        link: JSON.stringify(feature.link),
        sort_order: (order + 1) * 10,
        enabled: 1,
        updated_at: now.toISOString(),
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst()
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0n)
  }
  return inserted
}

export async function listEnabledFeatures(db: DB): Promise<AppFeature[]> {
  const rows = await db
    .selectFrom('features')
    .selectAll()
    .where('enabled', '=', 1)
    .orderBy('sort_order')
    .orderBy('key')
    .execute()
  return rows.flatMap((row) => {
    try {
      const link = JSON.parse(row.link) as AppFeature['link']
      return [
        {
          key: row.key,
          name: row.name,
          iconPath: row.icon_path,
          link,
          order: Number(row.sort_order),
        },
      ]
    } catch {
      // A damaged link would send the person nowhere: the feature is left out, not the page.
      return []
    }
  })
}

/** A built-in icon (SVG) by its key, or undefined. */
export function readFeatureIcon(key: string): Buffer | undefined {
  if (!/^[A-Za-z][A-Za-z0-9]{0,31}$/.test(key)) return undefined
  try {
    return readFileSync(path.join(FEATURE_ICONS_DIR, `${key}.svg`))
  } catch {
    return undefined
  }
}

/** The H5 build being served: the build's source hash (dist/h5/.source-hash), or null. */
export function deployedH5Build(webRoot: string): string | null {
  try {
    const hash = readFileSync(path.join(webRoot, '.source-hash'), 'utf8').trim()
    return /^[0-9a-f]{16,128}$/.test(hash) ? hash : null
  } catch {
    return null
  }
}

export async function listWebOrigins(db: DB): Promise<string[]> {
  const rows = await db.selectFrom('web_origins').select('origin').orderBy('origin').execute()
  return rows.map((row) => row.origin)
}

/** Demo mode's allowed web page: the national health commission (国家卫生健康委员会). */
export const demoWebOriginsStep = {
  name: 'apps-demo-web-origins',
  async run(db: DB, now: Date): Promise<void> {
    await db
      .insertInto('web_origins')
      .values({ origin: 'https://www.nhc.gov.cn', created_at: now.toISOString() })
      .onConflict((oc) => oc.column('origin').doNothing())
      .execute()
  },
}
