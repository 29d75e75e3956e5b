/**
 * Renders pages and components through @tarojs/test-utils-react, the way Taro's H5 entry mounts them.
 *
 * - `renderComponent(Component, props)`: a shared component or feature view, mounted by the test utils'
 *   `mount()` (a React root under document.body). Answers the util, whose `queries`/`fireEvent` (or
 *   @testing-library's `screen`) read `document.body`.
 * - `renderPage('pages/about/about', { a: '1' })`: the real page module of that route, loaded by Taro's
 *   H5 router from the app config that `app.config.ts` builds out of `routes.ts`, so `useRouter()`,
 *   `useDidShow()`, the page scroll hooks and `Taro.navigateTo` behave as in the app. The first call
 *   creates the app (once per test file, like the app itself); later calls `reLaunch` to the page.
 *
 * @tarojs/test-utils-react 0.1.1 was written for Taro 3.6: its own `createApp()` calls Taro 3's
 * `createRouter(app, config, framework)`, while Taro 4 wants `createRouter(history, app, config,
 * framework)`. `createTestApp` below mirrors Taro 4's generated H5 entry (@tarojs/taro-loader's h5.js)
 * instead.
 */
import TestUtils from '@tarojs/test-utils-react'
import { act, waitFor } from '@tarojs/test-utils-react/dist/pure'
import {
  isValidElement,
  type ComponentType,
  type PropsWithChildren,
  type ReactElement,
} from 'react'

type Params = Record<string, string | number | undefined>

export interface RenderedPage {
  /** The page's root element (`.taro_page`), inside document.body. */
  element: HTMLElement
  /** The path it was opened with, `/pages/x/x?a=1`. */
  url: string
}

function Shell({ children }: PropsWithChildren) {
  return children
}

let app: Promise<void> | null = null

function toUrl(path: string, params: Params = {}): string {
  const query = Object.entries(params)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&')
  const clean = path.replace(/^\//, '')
  return `/${clean}${query ? `?${query}` : ''}`
}

/**
 * Creates the Taro app once for this test file: routes from app.config.ts, pages loaded on demand with
 * `require`, hash history (jsdom has no server for browser-history deep links), the tab bar mounted.
 * `AppComponent` defaults to a pass-through shell: the real `src/app.ts` schedules the launch checks,
 * which tests of launch rules cover on their own.
 */
export function createTestApp(
  startUrl: string,
  AppComponent: ComponentType<PropsWithChildren> = Shell,
) {
  if (app) return app
  app = (async () => {
    const React = jest.requireActual<typeof import('react')>('react')
    // react-dom/client has no types here (@types/react-dom is not installed); Taro only passes it on.
    const ReactDOM: unknown = jest.requireActual('react-dom/client')
    const { createReactApp } = jest.requireActual('@tarojs/plugin-framework-react/dist/runtime')
    const { createRouter, createHashHistory, handleAppMountWithTabbar } =
      jest.requireActual('@tarojs/router')
    const { window: taroWindow } = jest.requireActual('@tarojs/runtime')
    const { findRoute, pageConfig } =
      jest.requireActual<typeof import('../src/routes')>('../src/routes')
    ;(globalThis as { defineAppConfig?: unknown }).defineAppConfig = (config: unknown) => config
    const appConfig = { ...jest.requireActual('../src/app.config').default }
    appConfig.pages = [
      ...appConfig.pages,
      ...appConfig.subPackages.flatMap((sub: { root: string; pages: string[] }) =>
        sub.pages.map((page) => `${sub.root}/${page}`),
      ),
    ]
    delete appConfig.subPackages
    appConfig.router = { mode: 'hash' }
    appConfig.routes = appConfig.pages.map((path: string) => ({
      path,
      // The page's own dependencies still go through jest.mock.
      load: (context: unknown, params: unknown) => [
        jest.requireActual(`../src/${path}`),
        context,
        params,
      ],
      ...pageConfig(findRoute(path)!.name as Parameters<typeof pageConfig>[0]),
    }))
    taroWindow.__taroAppConfig = appConfig
    // replaceState, not location.hash: a hashchange event would make the router load the page twice.
    window.history.replaceState(null, '', `#${startUrl}`)
    document.body.innerHTML = '<div id="app"></div>'
    const inst = createReactApp(AppComponent, React, ReactDOM, appConfig)
    const history = createHashHistory({ window: taroWindow })
    handleAppMountWithTabbar(appConfig, history)
    await act(async () => {
      createRouter(history, inst, appConfig, React)
    })
  })()
  return app
}

/** Opens the page of a route (path as in routes.ts, with or without the leading slash). */
export async function renderPage(path: string, params?: Params): Promise<RenderedPage> {
  const url = toUrl(path, params)
  if (!app) {
    await createTestApp(url)
  } else {
    const Taro = jest.requireActual('@tarojs/taro')
    await act(async () => {
      await Taro.reLaunch({ url })
    })
  }
  const pathOnly = url.split('?')[0]
  const element = await waitFor(
    () => {
      const pages = Array.from(document.querySelectorAll<HTMLElement>('.taro_page'))
      const page = pages.find((candidate) => candidate.id.split('?')[0] === pathOnly)
      if (!page || page.childElementCount === 0) throw new Error(`page ${url} not rendered`)
      return page
    },
    // Longer than waitFor's 1 s: on a loaded 2-core machine a page's first render took more (the
    // data-center test failed once so, and again at 5 s with a server suite running beside Jest); a
    // page that renders sooner is not waited for.
    { timeout: 10_000 },
  )
  return { element, url }
}

/** The test utils' instance, plus the container it rendered into and `unmount()` spelt as usual. */
export type RenderedComponent = TestUtils & { container: HTMLElement; unmount: () => void }

const mounted: RenderedComponent[] = []

// Like @testing-library/react's render, what a test mounted is unmounted after it, so every test
// starts from an empty body (the app and its pages stay: they are one per file).
afterEach(() => {
  // `unmout` is the test utils' own spelling.
  for (const utils of mounted.splice(0)) {
    utils.unmout()
    utils.container.remove()
  }
})

/**
 * Mounts a component with the test utils' `mount()`: `renderComponent(MineView, { loggedIn: false })`
 * or, for a quick element, `renderComponent(<MineView loggedIn={false} />)`. Answers the util
 * (`queries`, `fireEvent`, `html()`, `unmout()`); it is unmounted after the test.
 */
export async function renderComponent(element: ReactElement): Promise<RenderedComponent>
export async function renderComponent<P extends object>(
  Component: ComponentType<P>,
  props?: NoInfer<P>,
): Promise<RenderedComponent>
export async function renderComponent(
  what: ReactElement | ComponentType<object>,
  props?: object,
): Promise<RenderedComponent> {
  const testUtils = new TestUtils()
  const Component = isValidElement(what) ? () => what : what
  // Inside act: what settles while the utils wait a frame (a mocked service answering) is applied
  // before the test reads the DOM, as @testing-library's render does.
  await act(async () => {
    await testUtils.mount(Component as never, { props: isValidElement(what) ? undefined : props })
  })
  // The util keeps what it rendered in a private field; tests want the container, as RTL gives it.
  const inner = (testUtils as unknown as { _inst: { container: HTMLElement } })._inst
  const rendered = Object.assign(testUtils, {
    container: inner.container,
    unmount: () => testUtils.unmout(),
  })
  mounted.push(rendered)
  return rendered
}
