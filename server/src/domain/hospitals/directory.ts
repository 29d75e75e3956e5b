import {
  type Department,
  type Hospital,
  HospitalSchema,
  type RightNode,
} from '@contract/sso/directory'
import type { Role } from '@contract/sso/auth'
import type { DB } from '../../db'
import { contains } from '../../db/contains'
import { type Page, page } from '../../db/paging'
import type { HospitalsTable } from '../../db/schema'
import { notFound } from '../../http/errors'
import { toHospital } from './shape'

export const HOSPITAL_NOT_FOUND = '该医院不存在'
export const ROOM_NOT_FOUND = '该诊室不存在，请扫描医院诊室或自助终端上的二维码'

export async function listHospitals(db: DB, filter: { city?: string } = {}): Promise<Hospital[]> {
  let query = db.selectFrom('hospitals').selectAll()
  if (filter.city) query = query.where('city', '=', filter.city)
  const rows = await query.orderBy('sort_order').orderBy('id').execute()
  return rows.map((row) => toHospital(row, HospitalSchema))
}

export async function pageHospitals(
  db: DB,
  options: { keyword?: string; page?: number; pageSize?: number },
): Promise<Page<Hospital>> {
  const keyword = options.keyword?.trim()
  let query = db.selectFrom('hospitals')
  if (keyword) {
    query = query.where(({ or }) =>
      or([contains(db, 'name', keyword), contains(db, 'city', keyword)]),
    )
  }
  const found = await page(options, query.selectAll().orderBy('sort_order').orderBy('id'), query)
  return { ...found, items: found.items.map((row) => toHospital(row, HospitalSchema)) }
}

export async function listDepartments(db: DB, hospitalId: string): Promise<Department[]> {
  const hospital = await db
    .selectFrom('hospitals')
    .select('id')
    .where('id', '=', hospitalId)
    .executeTakeFirst()
  if (!hospital) throw notFound(HOSPITAL_NOT_FOUND)
  const rows = await db
    .selectFrom('departments')
    .selectAll()
    .where('hospital_id', '=', hospitalId)
    .orderBy('sort_order')
    .orderBy('id')
    .execute()
  return rows.map((row) => ({ id: row.id, hospitalId: row.hospital_id, name: row.name }))
}

/**
 * A hospital and (when named) one of its rooms (departments: exam rooms, terminals), for the room
 * codes of 院内报告. A room of another hospital is as unknown as a room that does not exist.
 */
export async function findHospitalRoom(
  db: DB,
  hospitalId: string,
  roomId: string | undefined,
): Promise<{ hospital: { id: string; name: string }; room: { id: string; name: string } | null }> {
  const hospital = await db
    .selectFrom('hospitals')
    .select(['id', 'name'])
    .where('id', '=', hospitalId)
    .executeTakeFirst()
  if (!hospital) throw notFound(HOSPITAL_NOT_FOUND)
  if (roomId === undefined) return { hospital, room: null }
  const room = await db
    .selectFrom('departments')
    .select(['id', 'name'])
    .where('id', '=', roomId)
    .where('hospital_id', '=', hospitalId)
    .executeTakeFirst()
  if (!room) throw notFound(ROOM_NOT_FOUND)
  return { hospital, room }
}

/*
 * What each role may open, as the spec's route table names the pages. The app builds its Mine
 * entries from this tree, so a role sees no page it cannot use; the server still checks every call.
 */
const PATIENT_TREE: readonly RightNode[] = [
  {
    key: 'image',
    title: '影像',
    children: [
      { key: 'image.mine', title: '我的影像', path: 'pages/personalImage/index' },
      { key: 'image.hospital', title: '院内影像查询', path: 'pages/personalImage/list' },
    ],
  },
  {
    key: 'report',
    title: '报告',
    children: [
      { key: 'report.mine', title: '我的报告', path: 'pages/personalReport/index' },
      { key: 'report.grants', title: '授权记录', path: 'pages/personalReport/shouquan-list' },
    ],
  },
  {
    key: 'consult',
    title: '咨询',
    children: [
      { key: 'consult.apply', title: '发起咨询', path: 'pages/middleRemote/middleRemote' },
      { key: 'consult.mine', title: '我的咨询', path: 'pages/questionList/questionList' },
    ],
  },
  {
    key: 'collect',
    title: '收藏',
    children: [{ key: 'collect.list', title: '我的收藏', path: 'pages/collectList/collectList' }],
  },
  {
    key: 'message',
    title: '消息',
    children: [{ key: 'message.list', title: '我的消息', path: 'pages/msg/list' }],
  },
  {
    key: 'expert',
    title: '专家',
    children: [
      // Anyone signed in may apply (issue 20); 找专家 and the profiles need no sign-in at all.
      { key: 'expert.apply', title: '专家认证', path: 'pages/expertPerfect/expertPerfect' },
    ],
  },
]

const EXPERT_EXTRA: readonly RightNode[] = [
  {
    key: 'doctorConsult',
    title: '患者咨询',
    children: [
      { key: 'doctorConsult.list', title: '患者咨询', path: 'pages/docQuestList/docQuestList' },
    ],
  },
  {
    key: 'wallet',
    title: '钱包',
    children: [
      { key: 'wallet.home', title: '我的钱包', path: 'pages/myWallet/myWallet' },
      { key: 'wallet.withdrawals', title: '提现记录', path: 'pages/myWallet/withdrawList' },
    ],
  },
  {
    key: 'expertAnswer',
    title: '专家问答',
    children: [
      { key: 'expertAnswer.messages', title: '咨询消息', path: 'pages/myMessage/myMessage' },
      { key: 'expertAnswer.todo', title: '待处理', path: 'pages/message/docDo' },
    ],
  },
]

/**
 * A certified expert's own pages (我的主页: the public profile as patients see it; 服务设置). Given by
 * the `experts` row, not the role: an operator who certified keeps the operator role and still has
 * a profile, and an account with the expert role but no approved application has none.
 */
const CERTIFIED_EXPERT_EXTRA: readonly RightNode[] = [
  {
    key: 'expertHome',
    title: '专家主页',
    children: [
      { key: 'expertHome.profile', title: '我的主页', path: 'pages/personalDetail/personalDetail' },
      { key: 'expertHome.settings', title: '服务设置', path: 'pages/experts/services' },
    ],
  },
]

/** An operator is a patient too, plus 运营后台 (H5 only; every call there checks the role again). */
const OPERATOR_EXTRA: readonly RightNode[] = [
  {
    key: 'operator',
    title: '运营',
    children: [
      { key: 'operator.home', title: '运营后台', path: 'pages/operator/index' },
      { key: 'operator.article', title: '编辑文章', path: 'pages/operator/article' },
    ],
  },
]

export function roleRights(role: Role, options: { certifiedExpert?: boolean } = {}): RightNode[] {
  const tree =
    role === 'expert'
      ? [...PATIENT_TREE, ...EXPERT_EXTRA]
      : role === 'operator'
        ? [...PATIENT_TREE, ...OPERATOR_EXTRA]
        : [...PATIENT_TREE]
  if (options.certifiedExpert) tree.push(...CERTIFIED_EXPERT_EXTRA)
  // A deep copy, so a caller that edits the answer cannot change the constant.
  return structuredClone(tree)
}

/*
 * Demo reference data. The names say 示例 (example) on purpose: these are not real hospitals, and the
 * app must never present them as such. Stable ids so e2e tests and bookmarks can name them.
 */
const DEMO_DEPARTMENTS = ['放射科', '心内科', '呼吸内科', '神经内科', '骨科', '普外科', '儿科']

export const DEMO_HOSPITALS: readonly (Omit<
  HospitalsTable,
  'sort_order' | 'created_at' | 'region_code' | 'region_name' | 'ai_reporting' | 'demo'
> & {
  departments: readonly string[]
})[] = [
  {
    id: 'demo-hospital-01',
    name: '示例市第一人民医院',
    level: '三级甲等',
    province: '示例省',
    city: '示例市',
    address: '示例市健康路 1 号（演示数据）',
    departments: DEMO_DEPARTMENTS,
  },
  {
    id: 'demo-hospital-02',
    name: '示例市中心医院',
    level: '三级甲等',
    province: '示例省',
    city: '示例市',
    address: '示例市人民大道 88 号（演示数据）',
    departments: DEMO_DEPARTMENTS,
  },
  {
    id: 'demo-hospital-03',
    name: '示例大学附属医院',
    level: '三级甲等',
    province: '示例省',
    city: '示例市',
    address: '示例市学府路 6 号（演示数据）',
    departments: [...DEMO_DEPARTMENTS, '肿瘤科', '核医学科'],
  },
  {
    id: 'demo-hospital-04',
    name: '示例市中医院',
    level: '三级乙等',
    province: '示例省',
    city: '示例市',
    address: '示例市杏林街 12 号（演示数据）',
    departments: ['放射科', '针灸科', '中医内科', '骨伤科'],
  },
  {
    id: 'demo-hospital-05',
    name: '示例市妇幼保健院',
    level: '三级乙等',
    province: '示例省',
    city: '示例市',
    address: '示例市康宁路 20 号（演示数据）',
    departments: ['放射科', '妇科', '产科', '儿科', '超声科'],
  },
  {
    id: 'demo-hospital-06',
    name: '样板市人民医院',
    level: '三级甲等',
    province: '示例省',
    city: '样板市',
    address: '样板市中山路 3 号（演示数据）',
    departments: DEMO_DEPARTMENTS,
  },
  {
    id: 'demo-hospital-07',
    name: '样板市第二人民医院',
    level: '二级甲等',
    province: '示例省',
    city: '样板市',
    address: '样板市北环路 45 号（演示数据）',
    departments: ['放射科', '心内科', '普外科', '急诊科'],
  },
  {
    id: 'demo-hospital-08',
    name: '示例县人民医院',
    level: '二级甲等',
    province: '示例省',
    city: '示例县',
    address: '示例县城关镇新华街 9 号（演示数据）',
    departments: ['放射科', '内科', '外科', '妇产科', '儿科'],
  },
  {
    id: 'demo-hospital-09',
    name: '示例县中医院',
    level: '二级甲等',
    province: '示例省',
    city: '示例县',
    address: '示例县城关镇南街 17 号（演示数据）',
    departments: ['放射科', '中医内科', '康复科'],
  },
  {
    id: 'demo-hospital-10',
    name: '样板市胸科医院',
    level: '三级乙等',
    province: '示例省',
    city: '样板市',
    address: '样板市滨江路 101 号（演示数据）',
    departments: ['放射科', '胸外科', '呼吸内科', '结核科'],
  },
  {
    id: 'demo-hospital-11',
    name: '样板市口腔医院',
    level: '二级甲等',
    province: '示例省',
    city: '样板市',
    address: '样板市解放路 58 号（演示数据）',
    departments: ['放射科', '口腔内科', '口腔颌面外科', '正畸科'],
  },
  {
    id: 'demo-hospital-12',
    name: '示例市第三人民医院',
    level: '二级甲等',
    province: '示例省',
    city: '示例市',
    address: '示例市东风路 210 号（演示数据）',
    departments: ['放射科', '心内科', '神经内科', '老年医学科'],
  },
]

/** A DEMO_STEPS entry (typed structurally: seed.ts imports this module, not the other way). */
export const demoHospitalsStep = {
  name: 'demo-hospitals',
  async run(db: DB, now: Date): Promise<void> {
    const createdAt = now.toISOString()
    await db
      .insertInto('hospitals')
      .values(
        DEMO_HOSPITALS.map(({ departments: _departments, ...hospital }, index) => ({
          ...hospital,
          sort_order: index + 1,
          created_at: createdAt,
          // Regions and AI reporting for the demo arrive with the image pages (issue 7).
          region_code: null,
          region_name: null,
          ai_reporting: 0,
          demo: 1,
        })),
      )
      .execute()
    await db
      .insertInto('departments')
      .values(
        DEMO_HOSPITALS.flatMap((hospital) =>
          hospital.departments.map((name, index) => ({
            id: `${hospital.id}-dept-${String(index + 1).padStart(2, '0')}`,
            hospital_id: hospital.id,
            name,
            sort_order: index + 1,
          })),
        ),
      )
      .execute()
  },
}

/*
 * Where the demo hospitals are (issue 7's region picker and current location): real GB/T 2260
 * districts in three provinces, so the cascade and "nearest region" behave as they will with real
 * hospitals. The hospitals stay named 示例…/样板… and marked 演示数据; only their place is real.
 * AI reporting is offered by three of them.
 */
export const DEMO_HOSPITAL_REGIONS: Readonly<
  Record<string, { code: string; province: string; city: string; district: string; ai?: boolean }>
> = {
  'demo-hospital-01': {
    code: '110101',
    province: '北京市',
    city: '北京市',
    district: '东城区',
    ai: true,
  },
  'demo-hospital-02': { code: '110102', province: '北京市', city: '北京市', district: '西城区' },
  'demo-hospital-03': {
    code: '110108',
    province: '北京市',
    city: '北京市',
    district: '海淀区',
    ai: true,
  },
  'demo-hospital-04': { code: '110106', province: '北京市', city: '北京市', district: '丰台区' },
  'demo-hospital-05': { code: '110105', province: '北京市', city: '北京市', district: '朝阳区' },
  'demo-hospital-06': {
    code: '310101',
    province: '上海市',
    city: '上海市',
    district: '黄浦区',
    ai: true,
  },
  'demo-hospital-07': { code: '310104', province: '上海市', city: '上海市', district: '徐汇区' },
  'demo-hospital-08': { code: '440104', province: '广东省', city: '广州市', district: '越秀区' },
  'demo-hospital-09': { code: '440103', province: '广东省', city: '广州市', district: '荔湾区' },
  'demo-hospital-10': { code: '310106', province: '上海市', city: '上海市', district: '静安区' },
  'demo-hospital-11': { code: '310105', province: '上海市', city: '上海市', district: '长宁区' },
  'demo-hospital-12': { code: '110105', province: '北京市', city: '北京市', district: '朝阳区' },
}

export const demoHospitalRegionsStep = {
  name: 'demo-hospital-regions',
  async run(db: DB): Promise<void> {
    for (const [id, region] of Object.entries(DEMO_HOSPITAL_REGIONS)) {
      const prefix = region.province === region.city ? region.city : region.province + region.city
      await db
        .updateTable('hospitals')
        .set({
          province: region.province,
          city: region.city,
          region_code: region.code,
          region_name: `${prefix}${region.district}`,
          ai_reporting: region.ai ? 1 : 0,
        })
        .where('id', '=', id)
        .where('demo', '=', 1)
        .execute()
    }
  },
}
