/**
 * What the route walk (e2e/route-walk.test.ts) checks on the page on screen. It runs inside the
 * browser (`page.evaluate(inspectPage, options)`), so it is one self-contained function that reads
 * only the DOM and imports nothing. It answers one Chinese line per problem, naming the element.
 */

export interface InspectOptions {
  /** The page's issue is finished: 即将上线 may appear only as the badge of an entry to a page that is not. */
  finished: boolean
  /** Titles of finished pages: an entry naming one must not say 即将上线. */
  finishedTitles: string[]
}

export function inspectPage({ finished, finishedTitles }: InspectOptions): string[] {
  /** WCAG 2.2 target size (minimum), 2.5.8: 24 by 24 CSS pixels. */
  const MIN_TARGET = 24
  const COMING_SOON = '即将上线'
  const problems: string[] = []

  const shown = (element: Element) =>
    element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })

  const describe = (element: Element): string => {
    const text = (element as HTMLElement).innerText?.replace(/\s+/g, ' ').trim() ?? ''
    const label =
      text ||
      element.getAttribute('aria-label') ||
      element.getAttribute('placeholder') ||
      (element as HTMLInputElement).value ||
      ''
    const tag = element.tagName.toLowerCase()
    const classes = Array.from(element.classList).slice(0, 2).join('.')
    return `${tag}${classes ? `.${classes}` : ''}${label ? `「${label.slice(0, 20)}」` : ''}`
  }

  // React keeps each element's props and fiber on it under a per-build key.
  const reactKey = (element: Element, prefix: string) =>
    Object.keys(element).find((key) => key.startsWith(prefix))
  type Fiber = {
    type: unknown
    memoizedProps?: Record<string, unknown> | null
    return: Fiber | null
    child: Fiber | null
  }
  const isNoop = (handler: unknown) =>
    typeof handler === 'function' &&
    /^(function\s*\w*)?\s*\(\s*\)\s*(=>)?\s*(\{\s*\}|void 0|undefined)$/.test(handler.toString())
  const handlerOf = (props: Record<string, unknown> | null | undefined) =>
    props ? (props.onClick ?? props.onTap ?? props.onLongPress ?? props.onLongTap) : undefined
  /**
   * Whether a tap on the element does something: its own React props, or those of the component
   * that renders it directly (Taro's <View> wraps a custom element and adds the listener itself).
   * A component's do-nothing default (NutUI's icons pass `() => void 0`) is not a control.
   */
  const hasTapHandler = (element: Element): boolean => {
    const propsKey = reactKey(element, '__reactProps$')
    const fiberKey = reactKey(element, '__reactFiber$')
    const own = propsKey
      ? handlerOf((element as unknown as Record<string, Record<string, unknown>>)[propsKey])
      : undefined
    let fiber = fiberKey ? ((element as unknown as Record<string, Fiber>)[fiberKey] ?? null) : null
    let handler = own
    // Up through the components whose output is this element (not their siblings'), at most three.
    for (let depth = 0; fiber?.return && depth < 3; depth += 1) {
      const parent: Fiber = fiber.return
      if (typeof parent.type === 'string' || parent.child !== fiber) break
      const parentHandler = handlerOf(parent.memoizedProps)
      if (isNoop(parentHandler)) return false
      handler ??= parentHandler
      fiber = parent
    }
    return typeof handler === 'function' && !isNoop(handler)
  }

  const CONTROL_SELECTOR = [
    'button',
    'a[href]',
    'input:not([type=hidden])',
    'select',
    'textarea',
    '[role=button]',
    '[role=link]',
    '[role=tab]',
    '[role=checkbox]',
    '[role=radio]',
    '[role=switch]',
    'taro-button-core',
    'taro-checkbox-core',
    'taro-radio-core',
    'taro-switch-core',
    '.nut-button',
    '.nut-checkbox',
    '.nut-radio',
    '.nut-switch',
    '.nut-tabs-titles-item',
    '.nut-cell-clickable',
    '.nut-checkbox-button',
    '.nut-radio-button',
  ].join(',')

  const all = Array.from(document.body.querySelectorAll('*')).filter(shown)
  const controls = new Set<Element>(
    all.filter((element) => element.matches(CONTROL_SELECTOR) || hasTapHandler(element)),
  )
  const isControl = (element: Element) => controls.has(element)

  /** Inline links in a sentence are exempt from the size rule (WCAG 2.5.8, "Inline"). */
  const inSentence = (element: Element) => {
    if (getComputedStyle(element).display !== 'inline') return false
    // Other words of the same line of text right beside it: 我已阅读并同意《用户协议》和《隐私政策》.
    // (In a flex row every child is blockified, so a lone link there is not in a sentence.)
    return Array.from(element.parentElement?.childNodes ?? []).some((sibling) =>
      sibling === element
        ? false
        : sibling.nodeType === Node.TEXT_NODE
          ? (sibling.textContent ?? '').trim() !== ''
          : sibling instanceof Element &&
            getComputedStyle(sibling).display === 'inline' &&
            (sibling.textContent ?? '').trim() !== '',
    )
  }

  // 1. Tap targets of at least 24×24; a form field counts its field's box (the field takes the tap).
  for (const control of controls) {
    const box = control.getBoundingClientRect()
    if (box.width === 0 && box.height === 0) {
      problems.push(`控件没有显示（0×0）：${describe(control)}`)
      continue
    }
    if (box.width >= MIN_TARGET && box.height >= MIN_TARGET) continue
    if (inSentence(control)) continue
    const field = control.matches('input, textarea, select')
      ? control.closest('.nut-input, .nut-textarea, .nut-searchbar, .nut-cell, .form-field')
      : null
    if (field) {
      const fieldBox = field.getBoundingClientRect()
      if (fieldBox.width >= MIN_TARGET && fieldBox.height >= MIN_TARGET) continue
    }
    // A control whose whole box is inside a bigger control with the same purpose (NutUI's checkbox
    // label around its icon) takes its tap from that one.
    const outer = control.parentElement?.closest(CONTROL_SELECTOR)
    if (outer && isControl(outer) && !hasTapHandler(control)) {
      const outerBox = outer.getBoundingClientRect()
      if (outerBox.width >= MIN_TARGET && outerBox.height >= MIN_TARGET) continue
    }
    problems.push(
      `控件小于 ${MIN_TARGET}×${MIN_TARGET}（${Math.round(box.width)}×${Math.round(box.height)}）：${describe(control)}`,
    )
  }

  // 2. Icons: NutUI's draw an SVG mask or an icon-font glyph; either can silently be nothing.
  const loadedFamilies = new Set<string>()
  const declaredFamilies = new Set<string>()
  document.fonts.forEach((face) => {
    const family = face.family.replace(/["']/g, '')
    declaredFamilies.add(family)
    if (face.status === 'loaded') loadedFamilies.add(family)
  })
  for (const icon of all.filter((element) =>
    element.matches('.nut-icon, [class*="iconfont"], svg'),
  )) {
    if (icon.closest('svg') !== icon && icon.tagName.toLowerCase() !== 'svg' && icon.closest('svg'))
      continue
    const box = icon.getBoundingClientRect()
    if (box.width < 1 || box.height < 1) {
      problems.push(
        `图标没有显示（${Math.round(box.width)}×${Math.round(box.height)}）：${describe(icon)}`,
      )
      continue
    }
    if (icon.tagName.toLowerCase() === 'svg') continue
    const style = getComputedStyle(icon)
    const mask =
      style.getPropertyValue('mask-image') || style.getPropertyValue('-webkit-mask-image')
    if (mask && mask !== 'none') continue
    if (style.backgroundImage !== 'none' || icon.querySelector('img, svg')) continue
    const glyph = getComputedStyle(icon, '::before').content
    if (!glyph || glyph === 'none' || glyph === 'normal' || glyph === '""') {
      problems.push(`图标没有图形（无 SVG、无字形）：${describe(icon)}`)
      continue
    }
    const families = style.fontFamily.split(',').map((family) => family.trim().replace(/["']/g, ''))
    const iconFamily = families.find((family) => declaredFamilies.has(family))
    if (!iconFamily || !loadedFamilies.has(iconFamily)) {
      problems.push(`图标字体没有加载（${style.fontFamily}）：${describe(icon)}`)
    }
  }

  // 3. Labels inside their control: not cut (wider or taller than the box) and a short label on one
  //    line (加入个人档案 in fragments). Inputs scroll their own text; scrollers scroll on purpose.
  const lineCount = (element: Element) => {
    const boxes: DOMRect[] = []
    const texts = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      if ((node.textContent ?? '').trim() === '') continue
      const range = document.createRange()
      range.selectNodeContents(node)
      boxes.push(...Array.from(range.getClientRects()).filter((rect) => rect.width > 0))
    }
    // A new line starts below the bottom of the one before (pieces of one line overlap).
    boxes.sort((a, b) => a.top - b.top)
    let lines = 0
    let bottom = -Infinity
    for (const box of boxes) {
      if (box.top >= bottom - 2) lines += 1
      bottom = Math.max(bottom, box.bottom)
    }
    return lines
  }
  for (const control of controls) {
    for (const element of [control, ...Array.from(control.querySelectorAll('*')).filter(shown)]) {
      if (element.matches('input, textarea, select')) continue
      const style = getComputedStyle(element)
      if (style.display === 'inline' || style.display === 'contents') continue
      if (/(auto|scroll)/.test(style.overflowX) || /(auto|scroll)/.test(style.overflowY)) continue
      // Cut on purpose, with an ellipsis (a summary's two lines).
      if (
        style.textOverflow === 'ellipsis' ||
        style.getPropertyValue('-webkit-line-clamp') !== 'none'
      )
        continue
      // A badge placed over the corner (the unread count on 我的) is not the label.
      const placed = Array.from(element.querySelectorAll('*')).some((inner) =>
        /(absolute|fixed)/.test(getComputedStyle(inner).position),
      )
      if (placed) continue
      const html = element as HTMLElement
      if (html.scrollWidth > html.clientWidth + 1 && html.clientWidth > 0) {
        problems.push(
          `文字超出控件宽度（${html.scrollWidth} > ${html.clientWidth}）：${describe(control)}`,
        )
        break
      }
      // Cut off below: a box that hides what does not fit (a few pixels of spare line height
      // are not text).
      if (
        /(hidden|clip)/.test(style.overflowY) &&
        style.getPropertyValue('-webkit-line-clamp') === 'none' &&
        html.scrollHeight > html.clientHeight + 4 &&
        html.clientHeight > 0
      ) {
        problems.push(
          `文字超出控件高度（${html.scrollHeight} > ${html.clientHeight}）：${describe(control)}`,
        )
        break
      }
    }
    const text = (control.textContent ?? '').trim()
    const buttonLike = control.matches(
      'button, taro-button-core, .nut-button, [role=button], [role=tab], .nut-tabs-titles-item',
    )
    // A button that stacks its labels on purpose (a column: 咨询 over a small 即将上线) is read
    // label by label; each must keep to one line.
    const controlStyle = getComputedStyle(control)
    const stacked =
      /flex/.test(controlStyle.display) && controlStyle.flexDirection.startsWith('column')
    const labels = stacked ? Array.from(control.children).filter(shown) : [control]
    if (
      buttonLike &&
      text.length > 0 &&
      text.length <= 8 &&
      labels.some((label) => lineCount(label) > 1)
    ) {
      problems.push(`按钮文字被折成多行：${describe(control)}`)
    }
  }

  // 3b. A list row's chevron or icon on the right sits level with its label (NutUI's Cell lets a
  //     short right side ride up to the top).
  for (const cell of all.filter((element) => element.matches('.nut-cell'))) {
    const title = cell.querySelector('.nut-cell-title')
    if (!title || cell.querySelector('.nut-cell-description')) continue
    const titleBox = title.getBoundingClientRect()
    for (const icon of Array.from(cell.querySelectorAll('.nut-cell-extra .nut-icon'))) {
      const box = icon.getBoundingClientRect()
      const offset = box.top + box.height / 2 - (titleBox.top + titleBox.height / 2)
      if (Math.abs(offset) > 3) {
        problems.push(`行尾图标与文字没有对齐（偏 ${Math.round(offset)}）：${describe(title)}`)
      }
    }
  }

  // 4. No control pushed past the screen's sides (a row that runs off sideways hides its last
  //    ones). Rows of tabs and filter chips scroll sideways by convention, and their cut last item
  //    shows that they do; a slide of a swiper that is not on screen is clipped away, not shown.
  const SIDEWAYS_BY_CONVENTION =
    '.tab-strip, .filter-chips__scroll, .nut-tabs-titles, .series-strip'
  const clippedAway = (element: Element, box: DOMRect) => {
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      const style = getComputedStyle(parent)
      if (!/(hidden|clip)/.test(style.overflowX)) continue
      const clip = parent.getBoundingClientRect()
      if (box.right <= clip.left + 1 || box.left >= clip.right - 1) return true
    }
    return false
  }
  const width = document.documentElement.clientWidth
  for (const control of controls) {
    const box = control.getBoundingClientRect()
    if (box.width === 0) continue
    if (box.right <= width + 1 && box.left >= -1) continue
    if (control.closest(SIDEWAYS_BY_CONVENTION) || clippedAway(control, box)) continue
    problems.push(
      `控件在屏幕外（左 ${Math.round(box.left)}，右 ${Math.round(box.right)}）：${describe(control)}`,
    )
  }

  // 5. Latin words and numbers stay on one line: word-break: break-all turns 增强 CT into C / T.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
  const broken = new Set<string>()
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement
    if (!parent || !shown(parent) || parent.closest('input, textarea, script, style')) continue
    for (const match of (node.textContent ?? '').matchAll(/[A-Za-z0-9]{2,12}/g)) {
      const range = document.createRange()
      range.setStart(node, match.index)
      range.setEnd(node, match.index + match[0].length)
      const tops = new Set(
        Array.from(range.getClientRects())
          .filter((rect) => rect.width > 0)
          .map((rect) => Math.round(rect.top)),
      )
      if (tops.size > 1 && !broken.has(match[0])) {
        broken.add(match[0])
        problems.push(`「${match[0]}」被拆在两行：${describe(parent)}`)
      }
    }
  }

  // 6. The theme is 0DB4AA: NutUI's and other libraries' blues (1677ff, 0073ff, 3b82f6) leaking in.
  const offThemeBlue = (colour: string) => {
    const rgb = /rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)/.exec(colour)
    if (!rgb) return false
    const [r, g, b] = [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])]
    if (rgb[4] !== undefined && Number(rgb[4]) < 0.2) return false
    // A saturated blue: blue well above red and green, green above red (else it is purple, the
    // AI mark) and well below blue (else it is the theme's teal).
    return b > 180 && b - r > 100 && g > r && b - g > 40
  }
  const blue = new Set<string>()
  for (const element of all) {
    const style = getComputedStyle(element)
    for (const colour of [style.color, style.backgroundColor, style.borderTopColor]) {
      if (offThemeBlue(colour) && (element as HTMLElement).innerText?.trim()) {
        const name = describe(element)
        if (!blue.has(name)) problems.push(`主题外的蓝色（${colour}）：${name}`)
        blue.add(name)
        break
      }
    }
  }

  // 7. 即将上线 on a finished page only as an entry's badge, and never on an entry to a finished page.
  if (finished) {
    for (const element of all) {
      const own = Array.from(element.childNodes)
        .filter((child) => child.nodeType === Node.TEXT_NODE)
        .map((child) => child.textContent ?? '')
        .join('')
      if (!own.includes(COMING_SOON)) continue
      // A badge says only 即将上线; its entry is the control around it, else its own box.
      const badge = own.trim() === COMING_SOON
      let entry: Element | null = element
      while (entry && !isControl(entry)) entry = entry.parentElement
      entry ??= element.parentElement
      const entryText = (entry?.textContent ?? '').replace(COMING_SOON, '').trim()
      if (!badge) {
        problems.push(`已完成的页面显示「${COMING_SOON}」：${describe(element)}`)
      } else if (finishedTitles.includes(entryText)) {
        problems.push(`入口指向已完成的页面却显示「${COMING_SOON}」：${entryText}`)
      }
    }
  }

  // 8. The page's own error state: it was opened with real data, so an error is a fault.
  for (const error of all.filter((element) => element.matches('.page-state--error'))) {
    problems.push(`页面显示错误：${(error as HTMLElement).innerText.replace(/\s+/g, ' ').trim()}`)
  }

  return problems
}
