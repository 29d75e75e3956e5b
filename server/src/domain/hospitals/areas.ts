import { sql } from 'kysely'
import {
  type AreaNode,
  type AreaRef,
  type ImageHospital,
  ImageHospitalSchema,
} from '@contract/image/areas'
import type { DB } from '../../db'
import { contains } from '../../db/contains'
import { type Page, page } from '../../db/paging'
import type { HospitalsTable } from '../../db/schema'
import { visibleTo } from '../records'
import type { PatientScope } from '../patient'
import { toHospital } from './shape'

/*
 * Regions of the hospitals we have (personalImage/imageHospital). A hospital's region_code is the
 * GB/T 2260 code of its district (110101) or city (110100); the province is its first two digits
 * (110000), the city its first four (110100). Names come from the hospital rows themselves
 * (province, city, and region_name for the district), so the cascade needs no region table and
 * lists only places where there is a hospital to pick.
 *
 * Current location: the app sends the coordinates the platform gave it (with the person's
 * permission); the server answers the nearest city that has hospitals, by great-circle distance to
 * the city's centre. No outside geocoding service is asked: the centres are the provincial capitals
 * and a few large cities below (a city we have no centre for counts at its province's capital).
 */

interface Place {
  code: string
  name: string
}

/** The province, city and district of a hospital, or undefined when it has no region code. */
export function placesOf(
  hospital: Pick<HospitalsTable, 'region_code' | 'region_name' | 'province' | 'city'>,
): { province: Place; city: Place; district: Place | null } | undefined {
  const code = hospital.region_code
  if (!code || !/^\d{6}$/.test(code)) return undefined
  const provinceCode = `${code.slice(0, 2)}0000`
  const cityCode = `${code.slice(0, 4)}00`
  const provinceName = hospital.province.trim() || provinceCode
  const cityName = hospital.city.trim() || provinceName
  const isDistrict = code.slice(4) !== '00'
  let districtName = hospital.region_name?.trim() || code
  // region_name is often the full name (北京市东城区): show the district's own part.
  for (const prefix of [provinceName, cityName]) {
    if (districtName.startsWith(prefix) && districtName.length > prefix.length) {
      districtName = districtName.slice(prefix.length)
    }
  }
  return {
    province: { code: provinceCode, name: provinceName },
    city: { code: cityCode, name: cityName },
    district: isDistrict ? { code, name: districtName } : null,
  }
}

type RegionRow = Pick<HospitalsTable, 'region_code' | 'region_name' | 'province' | 'city'>

async function regionRows(db: DB): Promise<RegionRow[]> {
  return db
    .selectFrom('hospitals')
    .select(['region_code', 'region_name', 'province', 'city'])
    .where('region_code', 'is not', null)
    .execute()
}

/** Provinces → cities → districts with hospital counts, sorted by code. */
export async function areaData(db: DB): Promise<AreaNode[]> {
  const provinces = new Map<string, AreaNode & { children: AreaNode[] }>()
  for (const row of await regionRows(db)) {
    const places = placesOf(row)
    if (!places) continue
    let province = provinces.get(places.province.code)
    if (!province) {
      province = { ...places.province, hospitalCount: 0, children: [] }
      provinces.set(places.province.code, province)
    }
    province.hospitalCount += 1
    let city = province.children.find((node) => node.code === places.city.code)
    if (!city) {
      city = { ...places.city, hospitalCount: 0, children: [] }
      province.children.push(city)
    }
    city.hospitalCount += 1
    if (places.district) {
      const children = city.children ?? (city.children = [])
      let district = children.find((node) => node.code === places.district!.code)
      if (!district) {
        district = { ...places.district, hospitalCount: 0 }
        children.push(district)
      }
      district.hospitalCount += 1
    }
  }
  const byCode = (a: AreaNode, b: AreaNode) => a.code.localeCompare(b.code)
  return [...provinces.values()].sort(byCode).map((province) => ({
    ...province,
    children: province.children.sort(byCode).map((city) => ({
      ...city,
      children: (city.children ?? []).sort(byCode),
    })),
  }))
}

// ---------------------------------------------------------------------------------------------------
// Hospital lists

/** The LIKE prefix of a province (11%), city (1101%) or district (110101) code. */
export function regionPrefix(code: string): string {
  if (code.endsWith('0000')) return code.slice(0, 2)
  if (code.endsWith('00')) return code.slice(0, 4)
  return code
}

export async function listImageHospitals(
  db: DB,
  options: {
    page?: number | undefined
    pageSize?: number | undefined
    regionCode?: string | undefined
    keyword?: string | undefined
    aiOnly?: boolean
  },
): Promise<Page<ImageHospital>> {
  let query = db.selectFrom('hospitals')
  if (options.regionCode) {
    query = query.where('region_code', 'like', `${regionPrefix(options.regionCode)}%`)
  }
  if (options.aiOnly) query = query.where('ai_reporting', '=', 1)
  const keyword = options.keyword?.trim()
  if (keyword) {
    query = query.where((eb) =>
      eb.or([
        contains(db, 'name', keyword),
        contains(db, 'city', keyword),
        contains(db, "coalesce(region_name, '')", keyword),
      ]),
    )
  }
  const found = await page(options, query.selectAll().orderBy('sort_order').orderBy('id'), query)
  return { ...found, items: found.items.map((row) => toHospital(row, ImageHospitalSchema)) }
}

export async function listAiHospitals(
  db: DB,
  options: { regionCode?: string | undefined },
): Promise<ImageHospital[]> {
  let query = db.selectFrom('hospitals').selectAll().where('ai_reporting', '=', 1)
  if (options.regionCode) {
    query = query.where('region_code', 'like', `${regionPrefix(options.regionCode)}%`)
  }
  const rows = await query.orderBy('sort_order').orderBy('id').execute()
  return rows.map((row) => toHospital(row, ImageHospitalSchema))
}

// ---------------------------------------------------------------------------------------------------
// Default area and current location

function areaRef(places: NonNullable<ReturnType<typeof placesOf>>): AreaRef {
  return {
    provinceCode: places.province.code,
    provinceName: places.province.name,
    cityCode: places.city.code,
    cityName: places.city.name,
    districtCode: places.district?.code ?? null,
    districtName: places.district?.name ?? null,
  }
}

/** The city with the most hospitals (the lowest code on a tie), as an area without district. */
function busiestCity(rows: readonly RegionRow[]): AreaRef | null {
  const counts = new Map<string, { places: NonNullable<ReturnType<typeof placesOf>>; n: number }>()
  for (const row of rows) {
    const places = placesOf(row)
    if (!places) continue
    const entry = counts.get(places.city.code) ?? { places, n: 0 }
    entry.n += 1
    counts.set(places.city.code, entry)
  }
  const best = [...counts.values()].sort(
    (a, b) => b.n - a.n || a.places.city.code.localeCompare(b.places.city.code),
  )[0]
  return best ? { ...areaRef(best.places), districtCode: null, districtName: null } : null
}

/**
 * Where the picker opens: the region of the hospital of my newest exam (that has a region), else the
 * city with the most hospitals, else null.
 */
export async function defaultArea(db: DB, scope: PatientScope): Promise<AreaRef | null> {
  const mine = await db
    .selectFrom('exams')
    .innerJoin('hospitals', 'hospitals.id', 'exams.hospital_id')
    .select([
      'hospitals.region_code',
      'hospitals.region_name',
      'hospitals.province',
      'hospitals.city',
    ])
    .where(visibleTo(scope.caller, scope.identity))
    .where('hospitals.region_code', 'is not', null)
    .orderBy(sql`coalesce(exams.study_date, substr(exams.created_at, 1, 10))`, 'desc')
    .orderBy('exams.created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  const places = mine ? placesOf(mine) : undefined
  if (places) return areaRef(places)
  return busiestCity(await regionRows(db))
}

/** Latitude, longitude of city centres by the city's four-digit code prefix. */
const CITY_CENTRES: Record<string, readonly [number, number]> = {
  // Provincial capitals (and the municipalities' urban districts).
  '1101': [39.904, 116.407],
  '1201': [39.125, 117.19],
  '1301': [38.042, 114.515],
  '1401': [37.87, 112.549],
  '1501': [40.842, 111.749],
  '2101': [41.805, 123.431],
  '2201': [43.817, 125.324],
  '2301': [45.803, 126.535],
  '3101': [31.23, 121.474],
  '3201': [32.06, 118.797],
  '3301': [30.274, 120.155],
  '3401': [31.821, 117.227],
  '3501': [26.074, 119.296],
  '3601': [28.682, 115.858],
  '3701': [36.651, 117.12],
  '4101': [34.747, 113.625],
  '4201': [30.593, 114.305],
  '4301': [28.228, 112.939],
  '4401': [23.129, 113.264],
  '4501': [22.817, 108.367],
  '4601': [20.044, 110.199],
  '5001': [29.563, 106.551],
  '5101': [30.573, 104.066],
  '5201': [26.647, 106.63],
  '5301': [25.038, 102.718],
  '5401': [29.652, 91.172],
  '6101': [34.341, 108.94],
  '6201': [36.061, 103.834],
  '6301': [36.617, 101.778],
  '6401': [38.487, 106.231],
  '6501': [43.825, 87.617],
  // Large cities that are not capitals.
  '2102': [38.914, 121.615],
  '3205': [31.299, 120.585],
  '3302': [29.868, 121.544],
  '3502': [24.48, 118.089],
  '3702': [36.067, 120.383],
  '4403': [22.543, 114.058],
  '4406': [23.021, 113.122],
  '4419': [23.021, 113.752],
}
// Hong Kong, Macao and Taiwan are single entries by province code.
const PROVINCE_CENTRES: Record<string, readonly [number, number]> = {
  '71': [25.033, 121.565],
  '81': [22.319, 114.169],
  '82': [22.199, 113.544],
}

/** The centre a city is measured from: its own, else its province's capital, else none. */
export function cityCentre(cityCode: string): readonly [number, number] | undefined {
  const province = cityCode.slice(0, 2)
  return (
    CITY_CENTRES[cityCode.slice(0, 4)] ??
    CITY_CENTRES[`${province}01`] ??
    PROVINCE_CENTRES[province]
  )
}

const EARTH_RADIUS_KM = 6371

/** Great-circle distance in km (haversine). */
export function distanceKm(a: readonly [number, number], b: readonly [number, number]): number {
  const rad = Math.PI / 180
  const dLat = (b[0] - a[0]) * rad
  const dLng = (b[1] - a[1]) * rad
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** The city with hospitals nearest to the coordinates (more hospitals win a tie). */
export async function currentLocation(
  db: DB,
  point: { latitude: number; longitude: number },
): Promise<{ area: AreaRef | null; distanceKm: number | null }> {
  const cities = new Map<string, { places: NonNullable<ReturnType<typeof placesOf>>; n: number }>()
  for (const row of await regionRows(db)) {
    const places = placesOf(row)
    if (!places) continue
    const entry = cities.get(places.city.code) ?? { places, n: 0 }
    entry.n += 1
    cities.set(places.city.code, entry)
  }
  let best: { places: NonNullable<ReturnType<typeof placesOf>>; n: number; km: number } | undefined
  for (const entry of cities.values()) {
    const centre = cityCentre(entry.places.city.code)
    if (!centre) continue
    const km = distanceKm([point.latitude, point.longitude], centre)
    if (!best || km < best.km - 1e-9 || (Math.abs(km - best.km) <= 1e-9 && entry.n > best.n)) {
      best = { ...entry, km }
    }
  }
  if (!best) {
    // Hospitals in places we have no centre for: the busiest city, without a distance.
    return { area: busiestCity(await regionRows(db)), distanceKm: null }
  }
  return {
    area: { ...areaRef(best.places), districtCode: null, districtName: null },
    distanceKm: Math.round(best.km * 10) / 10,
  }
}
