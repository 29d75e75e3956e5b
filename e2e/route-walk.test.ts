import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { ROUTES, type RouteDef } from '../src/routes'
import { BASE_URL, openPhone, screenshot, settle, signIn, type Phone } from './support'
import { inspectPage, type InspectOptions } from './walk/inspect'

/**
 * The guard of issue 18 §1: every route of src/routes.ts, opened by its exact path as the demo
 * patient (服务设置 and the wallet as the demo expert, 运营后台's pages as the demo operator) on a 390×844 phone (pages that need an id get a real one of the patient's data), must show
 * its content with no control smaller than 24×24, no icon that did not render, no label cut or
 * spilling out of its control, no Latin word broken over two lines (增强 C / T), no control pushed
 * off the screen sideways, no off-theme blue, no 即将上线 on a page whose issue is finished, no
 * error state, no console error and no failed request. Each page's picture is saved as
 * e2e/artifacts/walk-<name>.png. What it checks in the page: e2e/walk/inspect.ts.
 */

const PHONE_390 = { width: 390, height: 844 }
const PATIENT = { mobile: '13800000001', password: 'demo1234' }
/** The demo expert (服务设置 is an expert's page) and the demo operator (运营后台, H5 only). */
const EXPERT = { mobile: '13900000002', password: 'demo1234' }
const OPERATOR = { mobile: '13700000003', password: 'demo1234' }
type Account = typeof PATIENT

/** Pages walked as the person they are for; every other page is walked as the demo patient. */
const WALKED_AS: Partial<Record<string, Account>> = {
  expertServices: EXPERT,
  patientQuestions: EXPERT,
  // The wallet is a certified expert's (issue 22).
  myWallet: EXPERT,
  withdraw: EXPERT,
  withdrawList: EXPERT,
  walletTrade: EXPERT,
  withdrawal: EXPERT,
  operator: OPERATOR,
  operatorArticle: OPERATOR,
  operatorExpertApplication: OPERATOR,
}
/** The demo hospital's key (README: How a hospital connects), to print a film-bag code. */
const HOSPITAL_KEY = 'demo-hospital-key'

interface Envelope<T> {
  data: T
}

interface ExamSummary {
  id: string
  title: string
  accessionNumber?: string | null
  report: { id: string } | null
}

/** What the walk needs of the patient's data: real ids for the pages that take one. */
interface Fixtures {
  examId: string
  studyUid: string
  seriesUid: string
  reportId: string
  hospitalId: string
  hospitalName: string
  accessionNumber: string
  filmCode: string
  articleId: string
  videoId: string
  dietVideoId: string
  grantId: string
  /** The link session 查看 would keep (src/services/shares.ts), for the pages read through it. */
  shareSession: { accessToken: string; expiresAt: string }
  messageId: string
  /** A demo expert of 找专家 (issue 20), for 专家主页. */
  expertId: string
  /** An application waiting in the operators' queue (demo mode seeds one), for 专家认证审核. */
  applicationId: string
  /** One of the demo patient's consultations (demo mode seeds three), for 咨询详情 and 消息详情. */
  consultationId: string
  /** The demo expert account (its 咨询 pages take it). */
  consultExpertId: string
  /** A row of the demo expert's 交易记录 and one of its withdrawals, when it has them (issue 22). */
  walletTradeId: string | null
  withdrawalId: string | null
}

async function api<T>(
  path: string,
  token: string | null,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(`${BASE_URL}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const text = await response.text()
  assert.ok(response.ok, `${path}: ${response.status} ${text}`)
  return (JSON.parse(text) as Envelope<T>).data
}

interface ExamDetail {
  studyUid?: string | null
  studyInstanceUid?: string | null
  accessionNumber?: string | null
  series: { seriesUid: string; instanceCount: number }[]
}

async function loadFixtures(token: string): Promise<Fixtures> {
  const groups = await api<
    { hospital: { id: string; name: string } | null; latest: ExamSummary[] }[]
  >('/main/images', token)
  const hospitalGroup = groups.find((group) => group.hospital !== null)
  assert.ok(hospitalGroup?.hospital, 'the demo patient has a hospital’s exams')
  // An exam with a report and images, so 报告详情 and the viewer have both. (Other e2e files push
  // reports without images for the demo patient; they come first in 我的影像.)
  let found:
    | { exam: ExamSummary & { report: NonNullable<ExamSummary['report']> }; detail: ExamDetail }
    | undefined
  for (const exam of groups.flatMap((group) => group.latest)) {
    if (exam.report === null) continue
    const detail = await api<ExamDetail>(`/main/exams/${exam.id}`, token)
    if (detail.series.length > 0) {
      found = { exam: { ...exam, report: exam.report }, detail }
      break
    }
  }
  assert.ok(found, 'the demo patient has an exam with a report and a series')
  const { exam, detail } = found
  const series = [...detail.series].sort((a, b) => b.instanceCount - a.instanceCount)[0]!
  const studyUid = detail.studyUid ?? detail.studyInstanceUid ?? ''
  const accessionNumber = detail.accessionNumber ?? exam.accessionNumber ?? ''
  const film = await api<{ code: string }>('/scan/film-codes', HOSPITAL_KEY, {
    method: 'POST',
    body: accessionNumber ? { accessionNumber } : { studyInstanceUid: studyUid },
  })
  const articles = await api<{ items: { id: string }[] }>('/main/articles?page=1&pageSize=1', null)
  const talks = await api<{ items: { id: string }[] }>(
    '/main/videos?category=talk&page=1&pageSize=1',
    null,
  )
  const diet = await api<{ items: { id: string }[] }>(
    '/main/videos?category=diet&page=1&pageSize=1',
    null,
  )
  // A link the patient shares (no 提取码), so 查看分享 and the exam and report seen through it
  // show records.
  const created = await api<{ grant: { id: string }; link: { token: string } }>(
    '/main/grants',
    token,
    {
      method: 'POST',
      body: {
        audience: 'link',
        examIds: [exam.id],
        reportIds: [exam.report.id],
        duration: '24h',
      },
    },
  )
  // 查看 through the link, and a look at the exam: the owner's message of its first view (我的消息).
  const opened = await api<{ accessToken: string; expiresAt: string }>(
    `/main/shares/${created.link.token}/open`,
    null,
    { method: 'POST', body: {} },
  )
  await api(`/main/shared/${created.grant.id}/exams/${exam.id}`, opened.accessToken)
  const messages = await api<{ items: { id: string }[] }>('/main/messages?page=1&pageSize=1', token)
  assert.ok(messages.items[0], 'the first view through the link left the owner a message')
  const experts = await api<{ items: { id: string }[] }>('/main/experts?page=1&pageSize=1', null)
  assert.ok(experts.items[0], 'demo mode seeds certified experts for 找专家')
  const operator = await api<{ access_token: string }>('/sso/oauth2/token', null, {
    method: 'POST',
    body: { grant_type: 'password', username: OPERATOR.mobile, password: OPERATOR.password },
  })
  const queue = await api<{ items: { id: string }[] }>(
    '/main/operator/expert-applications?status=pending&page=1&pageSize=1',
    operator.access_token,
  )
  assert.ok(queue.items[0], 'demo mode seeds an application in the operators’ queue')
  // The demo consultations are made once the demo CT is stored: wait for them (a minute at most).
  let consultations: { items: { id: string; expert: { id: string } }[] } = { items: [] }
  for (let tries = 0; tries < 60 && consultations.items.length === 0; tries += 1) {
    // The oldest: the demo's own (other e2e files add theirs, with run tags in their texts).
    consultations = await api('/main/consultations?tab=done&page=1&pageSize=50', token)
    if (consultations.items.length === 0) await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  assert.ok(consultations.items[0], 'demo mode seeds a completed consultation')
  // The demo expert's wallet: income from the seeded consultations; a withdrawal only once some
  // flow has made one (the walk makes none: it would move the demo's money).
  const expert = await api<{ access_token: string }>('/sso/oauth2/token', null, {
    method: 'POST',
    body: { grant_type: 'password', username: EXPERT.mobile, password: EXPERT.password },
  })
  const trades = await api<{ items: { id: string }[] }>(
    '/main/wallet/trades?page=1&pageSize=1',
    expert.access_token,
  )
  const withdrawals = await api<{ items: { id: string }[] }>(
    '/main/wallet/withdrawals?page=1&pageSize=1',
    expert.access_token,
  )
  return {
    examId: exam.id,
    studyUid,
    seriesUid: series.seriesUid,
    reportId: exam.report.id,
    hospitalId: hospitalGroup.hospital.id,
    hospitalName: hospitalGroup.hospital.name,
    accessionNumber,
    filmCode: film.code,
    articleId: articles.items[0]!.id,
    videoId: talks.items[0]!.id,
    dietVideoId: diet.items[0]!.id,
    grantId: created.grant.id,
    shareSession: { accessToken: opened.accessToken, expiresAt: opened.expiresAt },
    messageId: messages.items[0].id,
    expertId: experts.items[0].id,
    applicationId: queue.items[0].id,
    consultationId: consultations.items.at(-1)!.id,
    consultExpertId: consultations.items.at(-1)!.expert.id,
    walletTradeId: trades.items[0]?.id ?? null,
    withdrawalId: withdrawals.items[0]?.id ?? null,
  }
}

/** The query each page that takes one is opened with; the others open bare. */
function queryOf(name: string, f: Fixtures): Record<string, string> {
  switch (name) {
    case 'imageDetail':
      return { id: f.examId }
    case 'imageViewer':
      return {
        examId: f.examId,
        seriesUid: f.seriesUid,
        ...(f.studyUid ? { studyUid: f.studyUid } : {}),
      }
    case 'hospitalExams':
      return { hospitalId: f.hospitalId, name: f.hospitalName }
    case 'reportDetail':
      return { id: f.reportId }
    // The demo patient has no upload of her own: her hospital exam stands in.
    case 'uploadDetail':
      return { id: f.examId }
    case 'barCode':
      return { value: f.accessionNumber, title: '检查号' }
    case 'filmReport':
      return { code: f.filmCode }
    // 院内报告 as a terminal's code opens it (the hospital, no room): her exams there.
    case 'reportIn':
      return { hospitalId: f.hospitalId }
    case 'reportsLanding':
      return { reportId: f.reportId, hospitalId: f.hospitalId }
    case 'grantList':
      return { examId: f.examId }
    case 'infoDetail':
      return { id: f.articleId }
    case 'videoShowDetail':
      return { id: f.videoId }
    case 'videoShowYsDetail':
      return { id: f.dietVideoId }
    case 'messageDetail':
      return { id: f.messageId }
    case 'personalDetail':
      return { id: f.expertId }
    case 'operatorExpertApplication':
      return { id: f.applicationId }
    case 'question':
      return { id: f.consultationId }
    case 'myMessageDetail':
      return { consultationId: f.consultationId }
    case 'consultMode':
      return { expertId: f.consultExpertId }
    case 'consultApplication':
    case 'examine':
    case 'consult':
      return { expertId: f.consultExpertId, service: 'text' }
    // After 查看 (the link session is in place): the shared records with their 影像 and 报告 tags.
    case 'share':
      return { grantId: f.grantId }
    case 'shareExam':
      return { grantId: f.grantId, examId: f.examId }
    case 'shareReport':
      return { grantId: f.grantId, reportId: f.reportId }
    // Without one (no trade, no withdrawal yet) the page opens bare and says where to come from.
    case 'walletTrade':
      return f.walletTradeId ? { id: f.walletTradeId } : {}
    case 'withdrawal':
      return f.withdrawalId ? { id: f.withdrawalId } : {}
    case 'openLocation':
      return { name: f.hospitalName }
    default:
      return {}
  }
}

/** A sheet a page opens, walked too: the owner's 授权 sheet from 影像详情. */
const SHEETS: Partial<Record<string, { button: string; shows: string }>> = {
  imageDetail: { button: '授权', shows: '＋ 同时授权其他检查' },
}

/**
 * Failed requests a page is built to make and answer in words; each says why it is not a fault.
 * (Nothing else may fail: an unexpected 4xx or 5xx is the bug this walk is for.)
 */
const EXPECTED_FAILURES: { route: string; url: RegExp; why: string }[] = []

function unexpectedErrors(route: RouteDef, errors: string[]): string[] {
  return errors.filter(
    (error) =>
      !EXPECTED_FAILURES.some(
        (expected) => expected.route === route.name && expected.url.test(error),
      ),
  )
}

/**
 * Until the page has its content: the network quiet (a viewer or a video keeps streaming, so not
 * forever), no loading state left, transitions done, fonts loaded.
 */
async function waitForContent(page: Page): Promise<string | null> {
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined)
  const loaded = await page
    .waitForFunction(
      () =>
        document.querySelector('.taro_page') !== null &&
        !Array.from(document.querySelectorAll('.page-state--loading')).some((element) =>
          element.checkVisibility(),
        ),
      undefined,
      { timeout: 15_000 },
    )
    .then(
      () => null,
      () => '页面 15 秒后仍在加载',
    )
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  await settle(page)
  return loaded
}

describe('route walk: every page at 390×844 as the demo patient (an expert’s and an operator’s pages as them)', () => {
  let phone: Phone
  let fixtures: Fixtures
  let signedInAs: Account = PATIENT
  before(async () => {
    phone = await openPhone(PHONE_390)
    // tsx names functions with a helper the browser does not have; page.evaluate ships them.
    await phone.context.addInitScript('window.__name = (f) => f')
    const token = await signIn(phone, PATIENT)
    fixtures = await loadFixtures(token)
  })
  after(async () => {
    await phone.close()
  })

  const finishedTitles = ROUTES.filter((route) => route.issue === undefined).map(
    (route) => route.title,
  )

  it('shows demo video posters as clean title cards (no counter, no square under 时长, title clear of the play button)', async () => {
    const { page } = phone
    const posters: string[] = []
    for (const category of ['talk', 'firstAid', 'diet']) {
      const videos = await api<{ items: { title: string; posterPath: string | null }[] }>(
        `/main/videos?category=${category}&page=1&pageSize=10`,
        null,
      )
      for (const video of videos.items) {
        assert.ok(video.posterPath, `${video.title} has a poster`)
        posters.push(video.posterPath)
      }
    }
    assert.ok(posters.length >= 5)
    await page.goto(`${BASE_URL}/pages/about/about`)
    // Where the video card's 时长 badge sits (bottom right), where the frame counter was (top left)
    // and where the player draws its play button and length (the middle) is the card's flat
    // background colour, give or take JPEG noise.
    const spotted = await page.evaluate(async (paths) => {
      const found: string[] = []
      for (const path of paths) {
        const image = new Image()
        image.src = path
        await image.decode()
        const canvas = document.createElement('canvas')
        canvas.width = image.naturalWidth
        canvas.height = image.naturalHeight
        const context = canvas.getContext('2d')!
        context.drawImage(image, 0, 0)
        const { width, height } = canvas
        const background = context.getImageData(width / 2, height - 4, 1, 1).data
        const corners = {
          左上角: [0, 0, width * 0.15, height * 0.14],
          中间: [width * 0.3, height * 0.35, width * 0.4, height * 0.35],
          右下角: [width * 0.7, height * 0.65, width * 0.3, height * 0.35],
        } as const
        for (const [corner, [x, y, w, h]] of Object.entries(corners)) {
          const pixels = context.getImageData(x, y, w, h).data
          for (let i = 0; i < pixels.length; i += 4) {
            const off = [0, 1, 2].some((c) => Math.abs(pixels[i + c]! - background[c]!) > 24)
            if (off) {
              found.push(`${path} ${corner}有图形`)
              break
            }
          }
        }
      }
      return found
    }, posters)
    assert.deepEqual(spotted, [])
  })

  for (const route of ROUTES) {
    it(`/${route.path}${route.issue === undefined ? '' : '（未完成）'}`, async () => {
      const { page } = phone
      const account = WALKED_AS[route.name] ?? PATIENT
      if (account !== signedInAs) {
        await signIn(phone, account)
        signedInAs = account
      }
      phone.errors.length = 0
      if (route.name.startsWith('share')) {
        await page.evaluate(
          ([key, session]) => sessionStorage.setItem(key, JSON.stringify(session)),
          [`yxs-share:${fixtures.grantId}`, fixtures.shareSession] as const,
        )
      }
      const query = new URLSearchParams(queryOf(route.name, fixtures)).toString()
      const response = await page.goto(`${BASE_URL}/${route.path}${query ? `?${query}` : ''}`)
      assert.equal(response?.status(), 200)
      const problems: string[] = []
      const stillLoading = await waitForContent(page)
      if (stillLoading) problems.push(stillLoading)
      await screenshot(page, `walk-${route.name}`)
      const options: InspectOptions = { finished: route.issue === undefined, finishedTitles }
      problems.push(...(await page.evaluate(inspectPage, options)))
      const sheet = SHEETS[route.name]
      if (sheet) {
        // The button itself: its label's box is covered by the button for the pointer.
        await page
          .locator('.taro_page:visible taro-button-core', { hasText: sheet.button })
          .first()
          .click()
        await page.getByText(sheet.shows).first().waitFor()
        await settle(page)
        await screenshot(page, `walk-${route.name}-sheet`)
        const inSheet = await page.evaluate(inspectPage, options)
        problems.push(...inSheet.map((problem) => `${sheet.button}：${problem}`))
      }
      problems.push(...unexpectedErrors(route, phone.errors).map((error) => `出错：${error}`))
      assert.deepEqual(problems, [], `/${route.path}`)
    })
  }
})
