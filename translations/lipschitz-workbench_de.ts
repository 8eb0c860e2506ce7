<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AttentionCertificate</name>
    <message>
        <source>converged</source>
        <translation>konvergiert</translation>
    </message>
    <message>
        <source>certified step</source>
        <translation>zertifizierter Schritt</translation>
    </message>
    <message>
        <source>not certified</source>
        <translation>nicht zertifiziert</translation>
    </message>
</context>
<context>
    <name>AttentionLab</name>
    <message>
        <source>AttLip</source>
        <translation>AttLip</translation>
    </message>
    <message>
        <source>ℓ2</source>
        <translation>ℓ2</translation>
    </message>
    <message>
        <source>standard</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>N: &apos;%1&apos; is not a token count between 1 and %2</source>
        <translation>N: &apos;%1&apos; ist keine Tokenanzahl zwischen 1 und %2</translation>
    </message>
    <message>
        <source>N: the token counts must increase (%1 after %2)</source>
        <translation>N: Die Tokenanzahlen müssen aufsteigen (%1 nach %2)</translation>
    </message>
    <message>
        <source>N: give at least one token count, e.g. 16, 32, 64</source>
        <translation>N: Geben Sie mindestens eine Tokenanzahl an, z. B. 16, 32, 64</translation>
    </message>
    <message>
        <source>Save pl&amp;ots…</source>
        <translation>Diagramme &amp;speichern…</translation>
    </message>
    <message>
        <source>Save pl&amp;ot…</source>
        <translation>Diagramm &amp;speichern…</translation>
    </message>
    <message>
        <source>E&amp;xport CSV…</source>
        <translation>CSV e&amp;xportieren…</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>Start nicht möglich: %1</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>H: %1 does not divide d = %2 (d_h = d / H)</source>
        <translation>H: %1 ist kein Teiler von d = %2 (d_h = d / H)</translation>
    </message>
    <message>
        <source>Armijo line search</source>
        <translation>Armijo-Liniensuche</translation>
    </message>
    <message>
        <source>fixed step</source>
        <translation>feste Schrittweite</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>AttLip&apos;s block x + α(prox(x) − x) (a run&apos;s model.prox_relaxation); 1 is the paper&apos;s AttLip. The prox is firmly non-expansive, so the block is 1-Lipschitz up to α = 2; above 2 its bound is α − 1.</source>
        <translation>AttLips Block x + α(prox(x) − x) (model.prox_relaxation eines Laufs); 1 ist das AttLip der Veröffentlichung. Der Prox ist fest nicht-expansiv, daher ist der Block bis α = 2 1-Lipschitz; oberhalb von 2 ist seine Schranke α − 1.</translation>
    </message>
</context>
<context>
    <name>AttentionLabPresets</name>
    <message>
        <source>1 · Tokens in the plane: who pulls inputs apart</source>
        <translation>1 · Tokens in der Ebene: Wer zieht Eingaben auseinander</translation>
    </message>
    <message>
        <source>Six tokens in the plane and a copy moved by 0.5. Compare how far apart the two images land under each kind: AttLip&apos;s ratio is below 1. Raise the perturbation or change the seed.</source>
        <translation>Sechs Tokens in der Ebene und eine um 0,5 verschobene Kopie. Vergleichen Sie, wie weit die beiden Bilder bei jeder Art auseinanderliegen: Das Verhältnis von AttLip liegt unter 1. Erhöhen Sie die Störung oder ändern Sie den Seed.</translation>
    </message>
    <message>
        <source>2 · Lipschitz vs N: AttLip stays at 1, ℓ2&apos;s bound grows</source>
        <translation>2 · Lipschitz vs. N: AttLip bleibt bei 1, die Schranke von ℓ2 wächst</translation>
    </message>
    <message>
        <source>3 · Table 1 at d 32, H 4 (the CPU reproduction)</source>
        <translation>3 · Tabelle 1 bei d 32, H 4 (die CPU-Reproduktion)</translation>
    </message>
    <message>
        <source>4 · Inside the prox: the residual falls fast</source>
        <translation>4 · Im Inneren des Prox: Das Residuum fällt schnell</translation>
    </message>
    <message>
        <source>5 · Inside the prox: large inputs, a bumpy residual</source>
        <translation>5 · Im Inneren des Prox: große Eingaben, ein holpriges Residuum</translation>
    </message>
    <message>
        <source>The same block with inputs N(0, 1): Armijo backtracks (λ = 1/8 at the first step) and ‖g‖ goes up as well as down; Armijo only promises that φ decreases.</source>
        <translation>Derselbe Block mit Eingaben N(0, 1): Armijo geht zurück (λ = 1/8 im ersten Schritt), und ‖g‖ steigt ebenso wie es fällt; Armijo garantiert nur, dass φ sinkt.</translation>
    </message>
    <message>
        <source>6 · Armijo with small K is not 1-Lipschitz</source>
        <translation>6 · Armijo mit kleinem K ist nicht 1-Lipschitz</translation>
    </message>
    <message>
        <source>Near pairs of inputs through K = 1 … 5 prox steps: with Armijo the ratio can exceed 1 (the accepted step jumps with the input); the fixed safe step never does.</source>
        <translation>Nahe Eingabepaare durch K = 1 … 5 Prox-Schritte: Mit Armijo kann das Verhältnis 1 übersteigen (der akzeptierte Schritt springt mit der Eingabe); die feste sichere Schrittweite tut das nie.</translation>
    </message>
    <message>
        <source>7 · The relaxed prox: 1-Lipschitz up to α = 2, not beyond</source>
        <translation>7 · Der relaxierte Prox: 1-Lipschitz bis α = 2, nicht darüber</translation>
    </message>
    <message>
        <source>The block x + α(prox(x) − x), which masked_chars_attlip_cpu trains with α = 2. The prox is firmly non-expansive, so the block is 1-Lipschitz for α ≤ 2; here α = 3, its bound is α − 1 = 2 and PGD finds pairs that move apart. Set α to 2 and press Run: the bound is 1 again and the estimate stays at or below it.</source>
        <translation>Der Block x + α(prox(x) − x), den masked_chars_attlip_cpu mit α = 2 trainiert. Der Prox ist fest nicht-expansiv, daher ist der Block für α ≤ 2 1-Lipschitz; hier ist α = 3, seine Schranke α − 1 = 2, und PGD findet Paare, die auseinanderrücken. Setzen Sie α auf 2 und drücken Sie Starten: die Schranke ist wieder 1, und die Schätzung bleibt bei oder unter ihr.</translation>
    </message>
    <message>
        <source>The AttLip paper&apos;s Table 1 in small (d 16, H 2): points arrive per N. AttLip&apos;s estimate sits just below its bound 1; ℓ2&apos;s bound grows like √N·log N while its estimate stays flat. The dotted lines are the paper&apos;s numbers at d 512, H 8 (its ℓ2 line is Eq. 6 as printed, not a bound).</source>
        <translation>Tabelle 1 der AttLip-Veröffentlichung im Kleinen (d 16, H 2): Die Punkte erscheinen je N. Die Schätzung von AttLip liegt knapp unter ihrer Schranke 1; die Schranke von ℓ2 wächst wie √N·log N, während ihre Schätzung flach bleibt. Die gepunkteten Linien sind die Werte der Veröffentlichung bei d 512, H 8 (ihre ℓ2-Linie ist Gl. 6 wie gedruckt, keine Schranke).</translation>
    </message>
    <message>
        <source>The AttLip paper&apos;s Fig. 1 in small: one head of width 64, inputs of size 1/√d. Armijo&apos;s residual ‖g‖ falls by orders of magnitude in 20 steps; the fixed safe step, certified but tiny, barely moves. Press Play and watch φ decrease.</source>
        <translation>Abb. 1 der AttLip-Veröffentlichung im Kleinen: ein Kopf der Breite 64, Eingaben der Größe 1/√d. Das Residuum ‖g‖ von Armijo fällt in 20 Schritten um Größenordnungen; die feste sichere Schrittweite, zertifiziert, aber winzig, bewegt sich kaum. Klicken Sie auf Abspielen und beobachten Sie, wie φ sinkt.</translation>
    </message>
    <message>
        <source>The CPU reproduction&apos;s setting: N = 16 … 128 with PGD 30 × 3. Press Run: it takes minutes on two cores; Cancel keeps the points already computed.</source>
        <translation>Die Einstellung der CPU-Reproduktion: N = 16 … 128 mit PGD 30 × 3. Klicken Sie auf Starten: Auf zwei Kernen dauert es Minuten; Abbrechen behält die bereits berechneten Punkte.</translation>
    </message>
</context>
<context>
    <name>ClipLabPresets</name>
    <message>
        <source>1 · Hard cap: only σ above σmax move</source>
        <translation>1 · Harte Kappung: nur σ über σmax bewegen sich</translation>
    </message>
    <message>
        <source>Singular values from 10 down to 0.01. Drag σmax: everything below the line stays put, everything above lands on it.</source>
        <translation>Singulärwerte von 10 bis hinab zu 0,01. Ziehen Sie σmax: alles unter der Linie bleibt, alles darüber landet auf ihr.</translation>
    </message>
    <message>
        <source>2 · Soft cap p₂∘p₁ with α*</source>
        <translation>2 · Weiche Kappung p₂∘p₁ mit α*</translation>
    </message>
    <message>
        <source>A Gaussian matrix with σ₁ = σmax + η, the largest σ₁ an update of norm η can reach. α* (App. B) is the least strength that brings it back to σmax; move η and watch α* follow. Far above σmax the polynomial turns over: the soft cap keeps bounded weights bounded, it does not repair large ones.</source>
        <translation>Eine Gaußsche Matrix mit σ₁ = σmax + η, dem größten σ₁, das ein Update der Norm η erreichen kann. α* (Anh. B) ist die kleinste Stärke, die es auf σmax zurückbringt; bewegen Sie η und sehen Sie α* folgen. Weit über σmax kippt das Polynom: die weiche Kappung hält beschränkte Gewichte beschränkt, große repariert sie nicht.</translation>
    </message>
    <message>
        <source>3 · Spectral normalize on a heavy-tailed spectrum</source>
        <translation>3 · Spektrale Normierung eines Spektrums mit schweren Rändern</translation>
    </message>
    <message>
        <source>Normalisation divides every σ by σ₁/σmax: the bulk shrinks with the top. Switch to hard cap to keep the bulk.</source>
        <translation>Die Normierung teilt jedes σ durch σ₁/σmax: die Masse schrumpft mit der Spitze. Wechseln Sie zur harten Kappung, um die Masse zu behalten.</translation>
    </message>
    <message>
        <source>4 · Clip to [σmin, σmax] on low rank + noise</source>
        <translation>4 · Clipping auf [σmin, σmax] bei niedrigem Rang + Rauschen</translation>
    </message>
    <message>
        <source>Eight signal directions above a noise floor. Clipping lifts the noise to σmin and caps the signal at σmax.</source>
        <translation>Acht Signalrichtungen über einem Rauschteppich. Das Clipping hebt das Rauschen auf σmin und kappt das Signal bei σmax.</translation>
    </message>
    <message>
        <source>5 · Newton–Schulz, one step at a time</source>
        <translation>5 · Newton–Schulz, Schritt für Schritt</translation>
    </message>
    <message>
        <source>Press Play: each step applies the same odd quintic to every singular value at once. Small σ grow ~3.4× per step; the polishing steps pull everything onto 1.</source>
        <translation>Drücken Sie Abspielen: jeder Schritt wendet dasselbe ungerade Polynom fünften Grades gleichzeitig auf jeden Singulärwert an. Kleine σ wachsen um ~3,4× pro Schritt; die Polierschritte ziehen alles auf 1.</translation>
    </message>
    <message>
        <source>6 · Low precision: nested hard cap in bfloat16</source>
        <translation>6 · Geringe Präzision: verschachtelte harte Kappung in bfloat16</translation>
    </message>
    <message>
        <source>σ₁ = 100 in bfloat16: the nested form must cancel ½W with low-precision products, so σ₁ after the cap misses σmax. Switch the implementation to exact SVD or the precision to float32.</source>
        <translation>σ₁ = 100 in bfloat16: die verschachtelte Form muss ½W mit Produkten geringer Präzision auslöschen, daher verfehlt σ₁ nach der Kappung σmax. Stellen Sie die Implementierung auf exakte SVD oder die Präzision auf float32.</translation>
    </message>
    <message>
        <source>7 · Nested vs anti-block-diagonal, σ₁ up to 1000</source>
        <translation>7 · Verschachtelt vs. anti-blockdiagonal, σ₁ bis 1000</translation>
    </message>
    <message>
        <source>8 · Weight decay pulls σ₁ to 1/λ</source>
        <translation>8 · Gewichtsabnahme zieht σ₁ auf 1/λ</translation>
    </message>
    <message>
        <source>Updates of norm η = 0.1 with decay λ = 0.5: σ₁ = σ₁(1 − λη) + η settles at 1/λ = 2. Clipped decay settles at β + (1 − λ)η/λ, the soft cap stays at σmax.</source>
        <translation>Updates der Norm η = 0,1 mit Abnahme λ = 0,5: σ₁ = σ₁(1 − λη) + η pendelt sich bei 1/λ = 2 ein. Die geclippte Abnahme pendelt sich bei β + (1 − λ)η/λ ein, die weiche Kappung bleibt bei σmax.</translation>
    </message>
    <message>
        <source>9 · Clipped decay: a tight bound with a gentle λ</source>
        <translation>9 · Geclippte Abnahme: eine enge Schranke mit sanftem λ</translation>
    </message>
    <message>
        <source>λ = 0.1: weight decay would allow σ₁ = 10, clipped decay holds β + 0.9·η/0.1 = 1.9. Lower η: its equilibrium approaches β.</source>
        <translation>λ = 0,1: Gewichtsabnahme ließe σ₁ = 10 zu, die geclippte Abnahme hält β + 0,9·η/0,1 = 1,9. Senken Sie η: ihr Gleichgewicht nähert sich β.</translation>
    </message>
    <message>
        <source>10 · Random updates: the predictions are upper bounds</source>
        <translation>10 · Zufällige Updates: die Vorhersagen sind obere Schranken</translation>
    </message>
    <message>
        <source>With updates only 30 % aligned with the weights, σ₁ settles below every predicted value.</source>
        <translation>Mit Updates, die nur zu 30 % an den Gewichten ausgerichtet sind, pendelt sich σ₁ unter jedem vorhergesagten Wert ein.</translation>
    </message>
    <message>
        <source>11 · Stiefel retraction: which msign converges</source>
        <translation>11 · Stiefel-Retraktion: welches msign konvergiert</translation>
    </message>
    <message>
        <source>Manifold Muon retracts W − ηA with msign: only Polar Express puts every σ back on 1 (to ~10⁻⁷); Jordan&apos;s quintic (Muon&apos;s msign) leaves them far off 1 (here ≈ 0.7).</source>
        <translation>Manifold Muon retrahiert W − ηA mit msign: nur Polar Express bringt jedes σ zurück auf 1 (bis auf ~10⁻⁷); Jordans Polynom fünften Grades (das msign von Muon) lässt sie weit neben 1 (hier ≈ 0,7).</translation>
    </message>
    <message>
        <source>The spectral-clipping paper, §6.1: hard cap of matrices with growing σ₁ in every implementation. In bfloat16 the error grows like eps·σ₁; compare the implementations, then rerun in float32.</source>
        <translation>Veröffentlichung zum Spectral Clipping, §6.1: harte Kappung von Matrizen mit wachsendem σ₁ in jeder Implementierung. In bfloat16 wächst der Fehler wie eps·σ₁; vergleichen Sie die Implementierungen und wiederholen Sie dann in float32.</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>System language</source>
        <translation>Systemsprache</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>The language changes when Lipschitz Workbench is started again.</source>
        <translation>Die Sprache ändert sich beim nächsten Start von Lipschitz Workbench.</translation>
    </message>
    <message>
        <source>Lan&amp;guage</source>
        <translation>&amp;Sprache</translation>
    </message>
</context>
<context>
    <name>LrDemo</name>
    <message>
        <source>preset %1 not found</source>
        <translation>Vorlage %1 nicht gefunden</translation>
    </message>
    <message>
        <source>%1 · lr %L2</source>
        <translation>%1 · lr %L2</translation>
    </message>
    <message>
        <source>%1 · lr %L2 (10×)</source>
        <translation>%1 · lr %L2 (10×)</translation>
    </message>
</context>
<context>
    <name>Numbers</name>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
</context>
<context>
    <name>PageExport</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>%1: the file name must end in .png or .pdf</source>
        <translation>%1: der Dateiname muss auf .png oder .pdf enden</translation>
    </message>
    <message>
        <source>Export the table as CSV</source>
        <translation>Die Tabelle als CSV exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>Save both plots</source>
        <translation>Beide Plots speichern</translation>
    </message>
    <message>
        <source>PNG image (*.png);;PDF document (*.pdf)</source>
        <translation>PNG-Bild (*.png);;PDF-Dokument (*.pdf)</translation>
    </message>
    <message>
        <source>Saving failed</source>
        <translation>Speichern fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>, %1×%2, σ₁ = %L3</source>
        <translation>, %1×%2, σ₁ = %L3</translation>
    </message>
    <message>
        <source> · smallest σ = %L1</source>
        <translation> · kleinstes σ = %L1</translation>
    </message>
    <message>
        <source>%1: not a run directory and holds none</source>
        <translation>%1: kein Laufverzeichnis und enthält keines</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <comment>model kind on task</comment>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>this model has no Lipschitz bound (the standard GPT baseline: LayerNorm has no global constant)</source>
        <translation>dieses Modell hat keine Lipschitz-Schranke (die Standard-GPT-Baseline: LayerNorm hat keine globale Konstante)</translation>
    </message>
    <message>
        <source>no bound: %1</source>
        <translation>keine Schranke: %1</translation>
    </message>
    <message>
        <source>scalar</source>
        <translation>Skalar</translation>
    </message>
    <message>
        <source>%1: named like a TensorBoard event file, but it is a folder</source>
        <translation>%1: heißt wie eine TensorBoard-Ereignisdatei, ist aber ein Ordner</translation>
    </message>
    <message>
        <source>TensorBoard file still being written</source>
        <translation>TensorBoard-Datei wird noch geschrieben</translation>
    </message>
    <message>
        <source>TensorBoard event file</source>
        <translation>TensorBoard-Ereignisdatei</translation>
    </message>
    <message>
        <source>Gaussian %1, σ₁ = %2</source>
        <translation>Gaußsch %1, σ₁ = %2</translation>
    </message>
    <message>
        <source>rank %1 + noise %2, %3, σ₁ = %4</source>
        <translation>Rang %1 + Rauschen %2, %3, σ₁ = %4</translation>
    </message>
    <message>
        <source>heavy-tailed (a = %1) %2, σ₁ = %3</source>
        <translation>schwere Ränder (a = %1) %2, σ₁ = %3</translation>
    </message>
    <message>
        <source>σ log-spaced %1 → %2, %3</source>
        <translation>σ logarithmisch verteilt %1 → %2, %3</translation>
    </message>
    <message>
        <source>%1 prescribed σ, %2</source>
        <translation>%1 vorgegebene σ, %2</translation>
    </message>
</context>
<context>
    <name>Registry</name>
    <message>
        <source>MNIST digits</source>
        <translation>MNIST-Ziffern</translation>
    </message>
    <message>
        <source>an MNIST IDX folder</source>
        <translation>ein MNIST-IDX-Ordner</translation>
    </message>
    <message>
        <source>CIFAR-10 images</source>
        <translation>CIFAR-10-Bilder</translation>
    </message>
    <message>
        <source>a CIFAR-10 binary folder</source>
        <translation>ein CIFAR-10-Binärordner</translation>
    </message>
    <message>
        <source>characters of a text</source>
        <translation>Zeichen eines Textes</translation>
    </message>
    <message>
        <source>any text file, next-character prediction</source>
        <translation>beliebige Textdatei, Vorhersage des nächsten Zeichens</translation>
    </message>
    <message>
        <source>modular addition</source>
        <translation>modulare Addition</translation>
    </message>
    <message>
        <source>(a + b) mod p, generated</source>
        <translation>(a + b) mod p, generiert</translation>
    </message>
    <message>
        <source>modular multiplication</source>
        <translation>modulare Multiplikation</translation>
    </message>
    <message>
        <source>(a · b) mod p, generated</source>
        <translation>(a · b) mod p, generiert</translation>
    </message>
    <message>
        <source>ReLU MLP</source>
        <translation>ReLU-MLP</translation>
    </message>
    <message>
        <source>bias-free ReLU MLP; input and output sizes from the task</source>
        <translation>ReLU-MLP ohne Bias; Ein- und Ausgabegröße aus der Aufgabe</translation>
    </message>
    <message>
        <source>Lipschitz transformer</source>
        <translation>Lipschitz-Transformer</translation>
    </message>
    <message>
        <source>000 §4: convex residuals, 1/d_head attention, GeLU/1.1289</source>
        <translation>000 §4: konvexe Residuen, 1/d_head-Attention, GeLU/1,1289</translation>
    </message>
    <message>
        <source>modular-arithmetic MLP</source>
        <translation>MLP für modulare Arithmetik</translation>
    </message>
    <message>
        <source>001 §6.2.1: two embeddings, two layers</source>
        <translation>001 §6.2.1: zwei Embeddings, zwei Schichten</translation>
    </message>
    <message>
        <source>AdamW</source>
        <translation>AdamW</translation>
    </message>
    <message>
        <source>Muon</source>
        <translation>Muon</translation>
    </message>
    <message>
        <source>msign of the momentum (Jordan et al. 2024): updates of known RMS→RMS norm</source>
        <translation>msign des Momentums (Jordan et al. 2024): Updates mit bekannter RMS→RMS-Norm</translation>
    </message>
    <message>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <source>weight decay</source>
        <translation>Gewichtsabnahme</translation>
    </message>
    <message>
        <source>spectral weight decay</source>
        <translation>spektrale Gewichtsabnahme</translation>
    </message>
    <message>
        <source>spectral normalize</source>
        <translation>spektrale Normierung</translation>
    </message>
    <message>
        <source>spectral hammer</source>
        <translation>spektraler Hammer</translation>
    </message>
    <message>
        <source>Stiefel (all σ → σmax)</source>
        <translation>Stiefel (alle σ → σmax)</translation>
    </message>
    <message>
        <source>spectral soft cap</source>
        <translation>spektrale weiche Kappung</translation>
    </message>
    <message>
        <source>spectral hard cap</source>
        <translation>spektrale harte Kappung</translation>
    </message>
    <message>
        <source>spectral clip [σmin, σmax]</source>
        <translation>spektrales Clipping [σmin, σmax]</translation>
    </message>
    <message>
        <source>spectral ReLU (σ ≥ σmin)</source>
        <translation>spektrale ReLU (σ ≥ σmin)</translation>
    </message>
    <message>
        <source>spectral clipped weight decay</source>
        <translation>spektrale geclippte Gewichtsabnahme</translation>
    </message>
    <message>
        <source>SVD clip (exact)</source>
        <translation>SVD-Clipping (exakt)</translation>
    </message>
    <message>
        <source>nested msign (001 §2.3)</source>
        <translation>verschachteltes msign (001 §2.3)</translation>
    </message>
    <message>
        <source>anti-block-diagonal, dense (001 §4.2)</source>
        <translation>anti-blockdiagonal, dicht (001 §4.2)</translation>
    </message>
    <message>
        <source>anti-block-diagonal, blocks (001 §4.3)</source>
        <translation>anti-blockdiagonal, Blöcke (001 §4.3)</translation>
    </message>
    <message>
        <source>exact SVD</source>
        <translation>exakte SVD</translation>
    </message>
    <message>
        <source>method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>σmax</source>
        <translation>σmax</translation>
    </message>
    <message>
        <source>target norm (RMS→RMS unless the norm is spectral)</source>
        <translation>Zielnorm (RMS→RMS, außer die Schwellennorm ist spectral)</translation>
    </message>
    <message>
        <source>σmin</source>
        <translation>σmin</translation>
    </message>
    <message>
        <source>lower threshold</source>
        <translation>untere Schwelle</translation>
    </message>
    <message>
        <source>α</source>
        <translation>α</translation>
    </message>
    <message>
        <source>a number, or auto for the minimal α* of App. B</source>
        <translation>eine Zahl, oder auto für das minimale α* aus Anh. B</translation>
    </message>
    <message>
        <source>λ</source>
        <translation>λ</translation>
    </message>
    <message>
        <source>decay strength</source>
        <translation>Stärke der Abnahme</translation>
    </message>
    <message>
        <source>learning rate η</source>
        <translation>Lernrate η</translation>
    </message>
    <message>
        <source>update norm</source>
        <translation>Update-Norm</translation>
    </message>
    <message>
        <source>bound on ‖ΔW‖ for α* (default η)</source>
        <translation>Schranke für ‖ΔW‖ bei α* (Standard η)</translation>
    </message>
    <message>
        <source>implementation</source>
        <translation>Implementierung</translation>
    </message>
    <message>
        <source>coefficients</source>
        <translation>Koeffizienten</translation>
    </message>
    <message>
        <source>Newton–Schulz coefficient set</source>
        <translation>Newton–Schulz-Koeffizientensatz</translation>
    </message>
    <message>
        <source>Newton–Schulz steps</source>
        <translation>Newton–Schulz-Schritte</translation>
    </message>
    <message>
        <source>polishing steps</source>
        <translation>Polierschritte</translation>
    </message>
    <message>
        <source>convergent (15/8, −10/8, 3/8) tail</source>
        <translation>konvergentes Ende mit (15/8, −10/8, 3/8)</translation>
    </message>
    <message>
        <source>power iterations</source>
        <translation>Potenziterationen</translation>
    </message>
    <message>
        <source>per step, warm-started across steps</source>
        <translation>pro Schritt, über Schritte hinweg warm gestartet</translation>
    </message>
    <message>
        <source>threshold norm</source>
        <translation>Schwellennorm</translation>
    </message>
    <message>
        <source>rms: RMS→RMS norm of a (d_out, d_in) matrix; spectral: σ₁</source>
        <translation>rms: RMS→RMS-Norm einer (d_out, d_in)-Matrix; spectral: σ₁</translation>
    </message>
    <message>
        <source>Jordan (3.4445, −4.7750, 2.0315)</source>
        <translation>Jordan (3,4445; −4,7750; 2,0315)</translation>
    </message>
    <message>
        <source>You, six tuples</source>
        <translation>You, sechs Tupel</translation>
    </message>
    <message>
        <source>polish (15/8, −10/8, 3/8)</source>
        <translation>Politur (15/8, −10/8, 3/8)</translation>
    </message>
    <message>
        <source>predict 0</source>
        <translation>0 vorhersagen</translation>
    </message>
    <message>
        <source>copy only</source>
        <translation>nur kopieren</translation>
    </message>
    <message>
        <source>Bayes floor</source>
        <translation>Bayes-Untergrenze</translation>
    </message>
    <message>
        <source>in-context least squares</source>
        <translation>kleinste Quadrate im Kontext</translation>
    </message>
    <message>
        <source>seed 002: predict y = x W in context, a fresh W per sequence; generated</source>
        <translation>seed 002: y = x W im Kontext vorhersagen, ein neues W je Sequenz; generiert</translation>
    </message>
    <message>
        <source>norm-free ICL transformer</source>
        <translation>normfreier ICL-Transformer</translation>
    </message>
    <message>
        <source>seed 002 §4: no normalisation, 1/d_head scores, ×1/3 attention and SwiGLU, convex residuals 1/L, RoPE</source>
        <translation>seed 002 §4: keine Normierung, 1/d_head-Scores, ×1/3 Attention und SwiGLU, konvexe Residuen 1/L, RoPE</translation>
    </message>
    <message>
        <source>Manifold Muon</source>
        <translation>Manifold Muon</translation>
    </message>
    <message>
        <source>seed 002: steepest descent on the Stiefel manifold, dual step + msign retraction; embeddings, head and scalars by AdamW</source>
        <translation>seed 002: steilster Abstieg auf der Stiefel-Mannigfaltigkeit, dualer Schritt + msign-Retraktion; Embeddings, Kopf und Skalare mit AdamW</translation>
    </message>
    <message>
        <source>Polar Express, eight tuples</source>
        <translation>Polar Express, acht Tupel</translation>
    </message>
    <message>
        <source>masked characters of a text</source>
        <translation>maskierte Zeichen eines Textes</translation>
    </message>
    <message>
        <source>seed 004 Table 2 analogue: 15 % of positions selected, 80/10/10 [MASK]/random/kept; non-causal</source>
        <translation>Analogon zu Seed 004 Table 2: 15 % der Positionen ausgewählt, 80/10/10 [MASK]/zufällig/beibehalten; nicht kausal</translation>
    </message>
    <message>
        <source>one-block masked LM (AttLip, ℓ2, standard or no attention)</source>
        <translation>Masked LM mit einem Block (AttLip, ℓ2, Standard oder keine Attention)</translation>
    </message>
    <message>
        <source>seed 004 §5.2: embedding + positions → attention → x + MLP(x) → unembedding, no norm</source>
        <translation>Seed 004 §5.2: Embedding + Positionen → Attention → x + MLP(x) → Unembedding, keine Normierung</translation>
    </message>
    <message>
        <source>unigram</source>
        <translation>Unigramm</translation>
    </message>
    <message>
        <source>bigram</source>
        <translation>Bigramm</translation>
    </message>
    <message>
        <source>trigram</source>
        <translation>Trigramm</translation>
    </message>
    <message>
        <source>5-gram</source>
        <translation>5-Gramm</translation>
    </message>
    <message>
        <source>power-law exponent of the eigenvalue tail (WeightWatcher&apos;s fit; heuristic: α &lt; 2 over-fit, α &gt; 6 under-trained)</source>
        <translation>Potenzgesetz-Exponent des Eigenwert-Schwanzes (Anpassung wie WeightWatcher; Faustregel: α &lt; 2 überangepasst, α &gt; 6 untertrainiert)</translation>
    </message>
    <message>
        <source>α xmin</source>
        <translation>α xmin</translation>
    </message>
    <message>
        <source>start of the power-law tail chosen by the KS distance (in λ = σ²)</source>
        <translation>Beginn des Potenzgesetz-Schwanzes, gewählt nach dem KS-Abstand (in λ = σ²)</translation>
    </message>
    <message>
        <source>KS distance</source>
        <translation>KS-Abstand</translation>
    </message>
    <message>
        <source>one-sided Kolmogorov–Smirnov distance of the power-law fit</source>
        <translation>einseitiger Kolmogorow-Smirnow-Abstand der Potenzgesetz-Anpassung</translation>
    </message>
    <message>
        <source>PL spikes</source>
        <translation>PL-Spitzen</translation>
    </message>
    <message>
        <source>eigenvalues in the power-law tail (λ ≥ xmin)</source>
        <translation>Eigenwerte im Potenzgesetz-Schwanz (λ ≥ xmin)</translation>
    </message>
    <message>
        <source>α̂ (weighted)</source>
        <translation>α̂ (gewichtet)</translation>
    </message>
    <message>
        <source>α·log10 λmax</source>
        <translation>α·log10 λmax</translation>
    </message>
    <message>
        <source>λmax = σ₁²</source>
        <translation>λmax = σ₁²</translation>
    </message>
    <message>
        <source>WeightWatcher&apos;s &quot;spectral norm&quot; is the largest eigenvalue λmax = σ₁² of WᵀW; the workbench&apos;s bounds use σ₁</source>
        <translation>WeightWatchers „Spektralnorm“ ist der größte Eigenwert λmax = σ₁² von WᵀW; die Schranken der Workbench verwenden σ₁</translation>
    </message>
    <message>
        <source>log10 λmax</source>
        <translation>log10 λmax</translation>
    </message>
    <message>
        <source>log10 of λmax = σ₁² (WeightWatcher&apos;s log_spectral_norm)</source>
        <translation>log10 von λmax = σ₁² (WeightWatchers log_spectral_norm)</translation>
    </message>
    <message>
        <source>log10 Σλ</source>
        <translation>log10 Σλ</translation>
    </message>
    <message>
        <source>log10 of the squared Frobenius norm Σλ</source>
        <translation>log10 der quadrierten Frobeniusnorm Σλ</translation>
    </message>
    <message>
        <source>log10 Σλ^α</source>
        <translation>log10 Σλ^α</translation>
    </message>
    <message>
        <source>log10 of the α-norm Σλ^α</source>
        <translation>log10 der α-Norm Σλ^α</translation>
    </message>
    <message>
        <source>Stable rank</source>
        <translation>Stabiler Rang</translation>
    </message>
    <message>
        <source>Σλ / λmax = ‖W‖²_F / σ₁²</source>
        <translation>Σλ / λmax = ‖W‖²_F / σ₁²</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>number of λ above λmax·max(N, M)·ε</source>
        <translation>Anzahl der λ über λmax·max(N, M)·ε</translation>
    </message>
    <message>
        <source>Entropy</source>
        <translation>Entropie</translation>
    </message>
    <message>
        <source>−Σ p ln p / ln(rank), p = λ/Σλ: 1 for a flat spectrum, 0 for rank one</source>
        <translation>−Σ p ln p / ln(Rang), p = λ/Σλ: 1 für ein flaches Spektrum, 0 für Rang eins</translation>
    </message>
    <message>
        <source>MP soft rank</source>
        <translation>MP-Weichrang</translation>
    </message>
    <message>
        <source>Marchenko–Pastur bulk edge / λmax</source>
        <translation>Marchenko-Pastur-Bulk-Kante / λmax</translation>
    </message>
    <message>
        <source>MP spikes</source>
        <translation>MP-Spitzen</translation>
    </message>
    <message>
        <source>eigenvalues beyond the Marchenko–Pastur bulk edge plus its Tracy–Widom margin</source>
        <translation>Eigenwerte jenseits der Marchenko-Pastur-Bulk-Kante plus ihrem Tracy-Widom-Rand</translation>
    </message>
    <message>
        <source>MP σ</source>
        <translation>MP σ</translation>
    </message>
    <message>
        <source>σ of the Marchenko–Pastur fit to the bulk (eigenvalues rescaled to mean 1)</source>
        <translation>σ der Marchenko-Pastur-Anpassung an den Bulk (Eigenwerte auf Mittelwert 1 skaliert)</translation>
    </message>
    <message>
        <source>σ₁</source>
        <translation>σ₁</translation>
    </message>
    <message>
        <source>largest singular value (the workbench&apos;s bounds use σ₁)</source>
        <translation>größter Singulärwert (die Schranken der Werkbank verwenden σ₁)</translation>
    </message>
    <message>
        <source>RMS→RMS</source>
        <translation>RMS→RMS</translation>
    </message>
    <message>
        <source>σ₁·√(d_in/d_out): the RMS→RMS operator norm</source>
        <translation>σ₁·√(d_in/d_out): die RMS→RMS-Operatornorm</translation>
    </message>
    <message>
        <source>‖W‖_F</source>
        <translation>‖W‖_F</translation>
    </message>
    <message>
        <source>Frobenius norm</source>
        <translation>Frobeniusnorm</translation>
    </message>
    <message>
        <source>nested</source>
        <translation>verschachtelt</translation>
    </message>
    <message>
        <source>ABD dense</source>
        <translation>ABD dicht</translation>
    </message>
    <message>
        <source>ABD blocks</source>
        <translation>ABD Blöcke</translation>
    </message>
    <message>
        <source>SVD</source>
        <translation>SVD</translation>
    </message>
    <message>
        <source>Jordan</source>
        <translation>Jordan</translation>
    </message>
    <message>
        <source>You</source>
        <translation>You</translation>
    </message>
    <message>
        <source>polish</source>
        <translation>Politur</translation>
    </message>
    <message>
        <source>Polar Express</source>
        <translation>Polar Express</translation>
    </message>
    <message>
        <source>no constraint</source>
        <translation>keine Beschränkung</translation>
    </message>
</context>
<context>
    <name>RunForm</name>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>chars: any text file; mnist: IDX folder; cifar10: binary folder; modular tasks are generated</source>
        <translation>chars: beliebige Textdatei; mnist: IDX-Ordner; cifar10: Binärordner; modulare Aufgaben werden generiert</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>Daten</translation>
    </message>
    <message>
        <source>file or folder the task reads</source>
        <translation>Datei oder Ordner, den die Aufgabe liest</translation>
    </message>
    <message>
        <source>Modulus p</source>
        <translation>Modul p</translation>
    </message>
    <message>
        <source>Train fraction</source>
        <translation>Trainingsanteil</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Batchgröße</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Threads</translation>
    </message>
    <message>
        <source>0: $LWB_THREADS or all cores</source>
        <translation>0: $LWB_THREADS oder alle Kerne</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Hidden widths</source>
        <translation>Verborgene Breiten</translation>
    </message>
    <message>
        <source>comma separated, e.g. 256, 256</source>
        <translation>durch Kommas getrennt, z. B. 256, 256</translation>
    </message>
    <message>
        <source>d_model</source>
        <translation>d_model</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>Blöcke</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>Köpfe</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>Sequenzlänge</translation>
    </message>
    <message>
        <source>Embedding dim</source>
        <translation>Embedding-Dim.</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>Breite</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>Learning rate η</source>
        <translation>Lernrate η</translation>
    </message>
    <message>
        <source>Weight decay λ</source>
        <translation>Gewichtsabnahme λ</translation>
    </message>
    <message>
        <source>decoupled; the soft cap&apos;s α* also uses it</source>
        <translation>entkoppelt; auch das α* der weichen Kappung verwendet sie</translation>
    </message>
    <message>
        <source>Momentum</source>
        <translation>Momentum</translation>
    </message>
    <message>
        <source>β₁</source>
        <translation>β₁</translation>
    </message>
    <message>
        <source>β₂</source>
        <translation>β₂</translation>
    </message>
    <message>
        <source>Muon NS steps</source>
        <translation>Muon-NS-Schritte</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Zeitplan</translation>
    </message>
    <message>
        <source>Logging</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>Log every</source>
        <translation>Protokoll alle</translation>
    </message>
    <message>
        <source>steps between metrics rows</source>
        <translation>Schritte zwischen Metrikzeilen</translation>
    </message>
    <message>
        <source>Evaluate every</source>
        <translation>Evaluierung alle</translation>
    </message>
    <message>
        <source>Spectra every</source>
        <translation>Spektren alle</translation>
    </message>
    <message>
        <source>0: no spectra</source>
        <translation>0: keine Spektren</translation>
    </message>
    <message>
        <source>Constraint</source>
        <translation>Beschränkung</translation>
    </message>
    <message>
        <source>Pairs per sequence T</source>
        <translation>Paare je Sequenz T</translation>
    </message>
    <message>
        <source>Pair order</source>
        <translation>Paarreihenfolge</translation>
    </message>
    <message>
        <source>random: half the sequences show y before x (the paper&apos;s data)</source>
        <translation>random: die Hälfte der Sequenzen zeigt y vor x (die Daten des Papers)</translation>
    </message>
    <message>
        <source>Input noise</source>
        <translation>Eingaberauschen</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Schichten</translation>
    </message>
    <message>
        <source>Normalisation</source>
        <translation>Normierung</translation>
    </message>
    <message>
        <source>Dual solver</source>
        <translation>Dual-Löser</translation>
    </message>
    <message>
        <source>Dual step α</source>
        <translation>Dualer Schritt α</translation>
    </message>
    <message>
        <source>AdamW group lr</source>
        <translation>lr der AdamW-Gruppe</translation>
    </message>
    <message>
        <source>embeddings, head and scalars</source>
        <translation>Embeddings, Kopf und Skalare</translation>
    </message>
    <message>
        <source>Masked share</source>
        <translation>Maskierter Anteil</translation>
    </message>
    <message>
        <source>share of positions the loss reads (RoBERTa: 0.15)</source>
        <translation>Anteil der Positionen, die der Verlust liest (RoBERTa: 0.15)</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <source>attlip: proximal 1-Lipschitz; l2: Kim&apos;s ℓ2; standard: dot product; none: MLP only</source>
        <translation>attlip: proximal, 1-Lipschitz; l2: ℓ2 nach Kim; standard: Skalarprodukt; none: nur MLP</translation>
    </message>
    <message>
        <source>Prox steps K (training)</source>
        <translation>Prox-K (Training)</translation>
    </message>
    <message>
        <source>reached by the schedule 1 → K over the run</source>
        <translation>erreicht durch den Plan 1 → K über den Lauf</translation>
    </message>
    <message>
        <source>Prox step rule</source>
        <translation>Prox-Schrittregel</translation>
    </message>
    <message>
        <source>armijo: backtracking (004 Alg. 1); fixed: 1-Lipschitz for every K</source>
        <translation>armijo: Backtracking (004 Alg. 1); fixed: 1-Lipschitz für jedes K</translation>
    </message>
    <message>
        <source>Prox steps K (evaluation)</source>
        <translation>Prox-K (Auswertung)</translation>
    </message>
    <message>
        <source>Prox tolerance (evaluation)</source>
        <translation>Prox-Toleranz (Ausw.)</translation>
    </message>
    <message>
        <source>stop at ‖g‖ ≤ tol·‖g⁰‖</source>
        <translation>Abbruch bei ‖g‖ ≤ tol·‖g⁰‖</translation>
    </message>
    <message>
        <source>Zero init</source>
        <translation>Null-Initialisierung</translation>
    </message>
    <message>
        <source>which output projections start at zero</source>
        <translation>welche Ausgabeprojektionen bei null beginnen</translation>
    </message>
    <message>
        <source>Learning-rate units</source>
        <translation>Einheiten der Lernrate</translation>
    </message>
    <message>
        <source>plain: lr × group multiplier; modula: lr × mass share ÷ sensitivity of what follows (000 App. F)</source>
        <translation>plain: lr × Gruppenfaktor; modula: lr × Massenanteil ÷ Sensitivität des Nachfolgenden (000 Anh. F)</translation>
    </message>
    <message>
        <source>Blocks mass</source>
        <translation>Masse der Blöcke</translation>
    </message>
    <message>
        <source>modula: the blocks&apos; share against 1 each for embedding and head</source>
        <translation>modula: Anteil der Blöcke gegenüber je 1 für Einbettung und Kopf</translation>
    </message>
    <message>
        <source>Prox η</source>
        <translation>Prox-η</translation>
    </message>
    <message>
        <source>AttLip is prox of η·f; smaller η: better conditioned, smaller moves</source>
        <translation>AttLip ist der Prox von η·f; kleineres η: besser konditioniert, kleinere Schritte</translation>
    </message>
    <message>
        <source>AttLip head cap</source>
        <translation>AttLip-Kopfschranke</translation>
    </message>
    <message>
        <source>&gt; 0: each head&apos;s ‖W^h‖_F at most this (bounds κ); 0: free</source>
        <translation>&gt; 0: ‖W^h‖_F jedes Kopfes höchstens dieser Wert (beschränkt κ); 0: frei</translation>
    </message>
    <message>
        <source>Unit-norm tokens</source>
        <translation>Token-Zeilen mit Norm 1</translation>
    </message>
    <message>
        <source>attention input rows scaled to ‖x_i‖ = 1: bounds the potential&apos;s curvature; the fixed rule is certified only with it</source>
        <translation>Eingabezeilen der Attention auf ‖x_i‖ = 1 skaliert: begrenzt die Krümmung des Potentials; die feste Regel ist nur damit zertifiziert</translation>
    </message>
    <message>
        <source>Prox relaxation α</source>
        <translation>Prox-Relaxation α</translation>
    </message>
    <message>
        <source>block x + α(prox(x) − x): 1-Lipschitz for α ≤ 2; 1: 004&apos;s AttLip</source>
        <translation>Block x + α(prox(x) − x): 1-Lipschitz für α ≤ 2; 1: AttLip aus 004</translation>
    </message>
    <message>
        <source>Logit scale</source>
        <translation>Logit-Skala</translation>
    </message>
    <message>
        <source>multiplies the logits and the Lipschitz bound</source>
        <translation>multipliziert die Logits und die Lipschitz-Schranke</translation>
    </message>
    <message>
        <source>Residual weight a</source>
        <translation>Residualgewicht a</translation>
    </message>
    <message>
        <source>(1 − a)·x + a·block(x); 0: 1/(2·blocks) as in 000</source>
        <translation>(1 − a)·x + a·Block(x); 0: 1/(2·Blöcke) wie in 000</translation>
    </message>
    <message>
        <source>MLP activation</source>
        <translation>MLP-Aktivierung</translation>
    </message>
    <message>
        <source>gelu: GeLU/1.1289 (000); maxmin: sorts the hidden units in pairs, keeps norms, so the MLP uses all of the slope the bound charges</source>
        <translation>gelu: GeLU/1,1289 (000); maxmin: sortiert die verborgenen Einheiten paarweise, erhält Normen, so nutzt das MLP die ganze Steigung, die die Schranke berechnet</translation>
    </message>
    <message>
        <source>Logit bias</source>
        <translation>Logit-Bias</translation>
    </message>
    <message>
        <source>a learned vector added to the logits: the characters&apos; overall frequencies, at no cost to the bound</source>
        <translation>ein gelernter Vektor, der zu den Logits addiert wird: die Gesamthäufigkeiten der Zeichen, ohne Kosten für die Schranke</translation>
    </message>
    <message>
        <source>Input convolution k</source>
        <translation>Eingangsfaltung k</translation>
    </message>
    <message>
        <source>causal convolution over the last k embedded characters before the blocks (0: none); its d × kd matrix is capped like the others</source>
        <translation>kausale Faltung über die letzten k eingebetteten Zeichen vor den Blöcken (0: keine); ihre d × kd-Matrix wird wie die anderen begrenzt</translation>
    </message>
    <message>
        <source>Score scale T</source>
        <translation>Score-Skala T</translation>
    </message>
    <message>
        <source>T/d_head inside the softmax (000: 1); the bound&apos;s attention term grows by T</source>
        <translation>T/d_head im Softmax (000: 1); der Attention-Term der Schranke wächst um den Faktor T</translation>
    </message>
    <message>
        <source>Residual</source>
        <translation>Residualverbindung</translation>
    </message>
    <message>
        <source>convex: (1 − a)·x + a·block(x) (000); sum: x + block(x), no 1/3 (LT&apos;s code in May 2025); the bound follows either</source>
        <translation>convex: (1 − a)·x + a·block(x) (000); sum: x + block(x), ohne 1/3 (LT-Code im Mai 2025); die Schranke folgt beidem</translation>
    </message>
    <message>
        <source>Attention scores</source>
        <translation>Attention-Scores</translation>
    </message>
    <message>
        <source>content: q·k/d_head (000); content_position: plus a learned bias per offset i − j, bound unchanged; position: the bias alone, no W_Q, W_K and no 1/3</source>
        <translation>content: q·k/d_head (000); content_position: dazu ein gelernter Bias je Abstand i − j, Schranke unverändert; position: nur der Bias, ohne W_Q, W_K und ohne 1/3</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>free</source>
        <translation>frei</translation>
    </message>
    <message>
        <source>no spectra</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Checkpoint every</source>
        <translation>Checkpoint alle</translation>
    </message>
    <message>
        <source>steps between resumable checkpoints (lipschitz-cli train --resume); 0: only when the run ends or is stopped</source>
        <translation>Schritte zwischen fortsetzbaren Checkpoints (lipschitz-cli train --resume); 0: nur am Ende oder beim Anhalten</translation>
    </message>
    <message>
        <source>only at the end</source>
        <translation>nur am Ende</translation>
    </message>
</context>
<context>
    <name>RunState</name>
    <message>
        <source>starting</source>
        <translation>startet</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>hält an</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>fertig</translation>
    </message>
    <message>
        <source>diverged</source>
        <translation>divergiert</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>following</source>
        <translation>verfolgt</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>ausstehend</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>in der Warteschlange</translation>
    </message>
    <message>
        <source>interrupted: no process is writing this run any more (killed or crashed); lipschitz-cli train --resume continues it from its last checkpoint, if it has one</source>
        <translation>unterbrochen: kein Prozess schreibt diesen Lauf mehr (beendet oder abgestürzt); lipschitz-cli train --resume setzt ihn am letzten Checkpoint fort, falls er einen hat</translation>
    </message>
    <message>
        <source>stopped at step %1</source>
        <translation>gestoppt bei Schritt %1</translation>
    </message>
    <message>
        <source>non-finite training loss at step %1</source>
        <translation>nicht endlicher Trainingsverlust bei Schritt %1</translation>
    </message>
    <message>
        <source>%1 at step %2</source>
        <translation>%1 bei Schritt %2</translation>
    </message>
    <message>
        <source>matrix %1 left the Stiefel manifold: sigma in [%2, %3]</source>
        <translation>Matrix %1 hat die Stiefel-Mannigfaltigkeit verlassen: σ in [%2; %3]</translation>
    </message>
    <message>
        <source>at lr %1 the soft cap cannot hold sigma_max %2: its polynomial turns over below the largest singular value an update can reach, so singular values of up to %3 (%4 % over) stay, and the bound is not held at sigma_max while the lr is this large (with Muon&apos;s update bound, lr &lt;= 0.25 sigma_max keeps it)</source>
        <translation>bei Lernrate %1 kann die weiche Kappung σmax %2 nicht halten: ihr Polynom kehrt unterhalb des größten Singulärwerts um, den ein Update erreichen kann; Singulärwerte bis %3 (%4 % darüber) bleiben, und die Schranke gilt nicht bei σmax, solange die Lernrate so groß ist (mit Muons Update-Schranke hält Lernrate ≤ 0,25 σmax sie)</translation>
    </message>
    <message>
        <source>the ranks&apos; weights drifted apart (parameter checksum %1 on rank 0, %2 on rank %3)</source>
        <translation>die Gewichte der Ränge sind auseinandergelaufen (Parameter-Prüfsumme %1 auf Rang 0, %2 auf Rang %3)</translation>
    </message>
    <message>
        <source>with updates of norm %1 the soft cap cannot hold sigma_max %2: its polynomial turns over below the largest singular value an update can reach, so singular values of up to %3 (%4 % over) stay</source>
        <translation>bei Updates der Norm %1 kann die weiche Kappung σmax %2 nicht halten: ihr Polynom kehrt unterhalb des größten Singulärwerts um, den ein Update erreichen kann; Singulärwerte bis %3 (%4 % darüber) bleiben</translation>
    </message>
</context>
<context>
    <name>SaveDialog</name>
    <message>
        <source>Replace files?</source>
        <translation>Dateien ersetzen?</translation>
    </message>
    <message>
        <source>These files exist and would be replaced:
%1</source>
        <translation>Diese Dateien gibt es schon; sie würden ersetzt:
%1</translation>
    </message>
</context>
<context>
    <name>ScalarMap</name>
    <message>
        <source>no constraint f(σ) = σ</source>
        <translation>unbeschränkt f(σ) = σ</translation>
    </message>
    <message>
        <source>weight decay (1 − λη)σ</source>
        <translation>Gewichtsabnahme (1 − λη)σ</translation>
    </message>
    <message>
        <source>spectral weight decay σ₁ → (1 − λ)σ₁</source>
        <translation>spektrale Abnahme σ₁ → (1 − λ)σ₁</translation>
    </message>
    <message>
        <source>normalize σ·σmax/max(σ₁, σmax)</source>
        <translation>Normierung σ·σmax/max(σ₁, σmax)</translation>
    </message>
    <message>
        <source>hammer σ₁ → σmax</source>
        <translation>Hammer σ₁ → σmax</translation>
    </message>
    <message>
        <source>Stiefel σ → σmax</source>
        <translation>Stiefel σ → σmax</translation>
    </message>
    <message>
        <source>soft cap p₂∘p₁</source>
        <translation>weiche Kappung p₂∘p₁</translation>
    </message>
    <message>
        <source>hard cap min(σ, σmax)</source>
        <translation>Kappung min(σ, σmax)</translation>
    </message>
    <message>
        <source>clip to [σmin, σmax]</source>
        <translation>Clipping [σmin, σmax]</translation>
    </message>
    <message>
        <source>spectral ReLU max(σ, σmin)</source>
        <translation>spektrale ReLU max(σ, σmin)</translation>
    </message>
    <message>
        <source>clipped weight decay</source>
        <translation>geclippte Abnahme</translation>
    </message>
</context>
<context>
    <name>SweepSpecText</name>
    <message>
        <source>no values</source>
        <translation>keine Werte</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: a range is FROM..TO xCOUNT [log]</source>
        <translation>„%1“: ein Bereich ist VON..BIS xANZAHL [log]</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: an empty value between commas</source>
        <translation>„%1“: ein leerer Wert zwischen Kommas</translation>
    </message>
    <message>
        <source>seeds &apos;%1&apos;: FROM..TO with FROM ≤ TO, at most 1000 seeds</source>
        <translation>Seeds „%1“: VON..BIS mit VON ≤ BIS, höchstens 1000 Seeds</translation>
    </message>
    <message>
        <source>seeds: &apos;%1&apos; is not an integer ≥ 0</source>
        <translation>Seeds: „%1“ ist keine ganze Zahl ≥ 0</translation>
    </message>
</context>
<context>
    <name>lwb::app::Dashboard</name>
    <message>
        <source>Loss and accuracy</source>
        <translation>Verlust und Genauigkeit</translation>
    </message>
    <message>
        <source>Weight norms (RMS→RMS)</source>
        <translation>Gewichtsnormen (RMS→RMS)</translation>
    </message>
    <message>
        <source>Singular values</source>
        <translation>Singulärwerte</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <source>Constraint map f(σ)</source>
        <translation>Beschränkungsabbildung f(σ)</translation>
    </message>
    <message>
        <source>Training and validation loss (and accuracy) of every run over steps: is it learning?</source>
        <translation>Trainings- und Validierungsverlust (und Genauigkeit) jedes Laufs über die Schritte: Lernt das Netz?</translation>
    </message>
    <message>
        <source>The singular values of one layer, before and after the constraint step; the scrubber walks through the recorded steps.</source>
        <translation>Die Singulärwerte einer Schicht vor und nach dem Beschränkungsschritt; der Schieberegler läuft durch die aufgezeichneten Schritte.</translation>
    </message>
    <message>
        <source>The largest activation entry and token RMS per block, against the ranges of bf16, fp8 and fp4: bounded weights keep them small.</source>
        <translation>Der größte Aktivierungseintrag und der größte Token-RMS je Block, gegen die Wertebereiche von bf16, fp8 und fp4: beschränkte Gewichte halten sie klein.</translation>
    </message>
    <message>
        <source>What the constraint does to a singular value σ (the soft cap&apos;s f at the current α*), with the chosen layer&apos;s σ marked on it.</source>
        <translation>Was die Beschränkung mit einem Singulärwert σ macht (beim Soft Cap f zum aktuellen α*), mit den σ der gewählten Schicht darauf markiert.</translation>
    </message>
    <message>
        <source>σ of constrained matrices</source>
        <translation>σ beschränkter Matrizen</translation>
    </message>
    <message>
        <source>diverged beyond</source>
        <translation>divergiert jenseits</translation>
    </message>
    <message>
        <source>1 + 10⁻³</source>
        <translation>1 + 10⁻³</translation>
    </message>
    <message>
        <source>1 − 10⁻³</source>
        <translation>1 − 10⁻³</translation>
    </message>
    <message>
        <source>tangency violation rms(WᵀM + MᵀW)</source>
        <translation>Tangentialverletzung rms(WᵀM + MᵀW)</translation>
    </message>
    <message>
        <source>output RMS (token mean)</source>
        <translation>Ausgabe-RMS (Token-Mittel)</translation>
    </message>
    <message>
        <source>Stiefel band</source>
        <translation>Stiefel-Band</translation>
    </message>
    <message>
        <source>Manifold Muon: the smallest and largest singular value of every constrained matrix after each logged step — a flat line at 1 while the matrices stay on the manifold.</source>
        <translation>Manifold Muon: kleinster und größter Singulärwert jeder eingeschränkten Matrix nach jedem protokollierten Schritt — eine flache Linie bei 1, solange die Matrizen auf der Mannigfaltigkeit bleiben.</translation>
    </message>
    <message>
        <source>Tangency violation</source>
        <translation>Tangentialverletzung</translation>
    </message>
    <message>
        <source>Manifold Muon: how far each matrix&apos;s update direction is from the tangent space, rms(WᵀM + MᵀW).</source>
        <translation>Manifold Muon: wie weit die Update-Richtung jeder Matrix vom Tangentialraum entfernt ist, rms(WᵀM + MᵀW).</translation>
    </message>
    <message>
        <source>Activation RMS</source>
        <translation>Aktivierungs-RMS</translation>
    </message>
    <message>
        <source>movement ‖AttLip(X) − X‖/‖X‖</source>
        <translation>Bewegung ‖AttLip(X) − X‖/‖X‖</translation>
    </message>
    <message>
        <source>λ mean</source>
        <translation>λ Mittel</translation>
    </message>
    <message>
        <source>λ min</source>
        <translation>λ Minimum</translation>
    </message>
    <message>
        <source>‖g_K‖/‖g_0‖</source>
        <translation>‖g_K‖/‖g_0‖</translation>
    </message>
    <message>
        <source>evaluation movement</source>
        <translation>Bewegung bei der Auswertung</translation>
    </message>
    <message>
        <source>evaluation ‖g_K‖/‖g_0‖</source>
        <translation>‖g_K‖/‖g_0‖ bei der Auswertung</translation>
    </message>
    <message>
        <source>AttLip solver</source>
        <translation>AttLip-Löser</translation>
    </message>
    <message>
        <source>Each layer&apos;s RMS→RMS weight norm against the σmax target the constraint holds them to. Embeddings are not held to σmax: the model normalises or caps each token&apos;s row instead.</source>
        <translation>Die RMS→RMS-Gewichtsnorm jeder Schicht gegen das σmax-Ziel, auf dem die Beschränkung sie hält. Einbettungen sind nicht an σmax gebunden: Das Modell normiert oder kappt stattdessen die Zeile jedes Tokens.</translation>
    </message>
    <message>
        <source>The network&apos;s certified Lipschitz bound over steps: no change of the embedded input by δ (RMS per token) moves the logits by more than bound × δ. Every matrix stays at σmax, but the bound is the product of the per-layer factors in the trace beside it (hover a layer for the arithmetic), so a few layers slightly above 1 multiply into a large number; σmax, the final logit scale and the number of heads set it.</source>
        <translation>Die zertifizierte Lipschitz-Schranke des Netzes über die Schritte: Keine Änderung der eingebetteten Eingabe um δ (RMS je Token) bewegt die Logits um mehr als Schranke × δ. Jede Matrix bleibt bei σmax, aber die Schranke ist das Produkt der schichtweisen Faktoren in der Spur daneben (Maus über eine Schicht zeigt die Rechnung), daher multiplizieren sich einige Schichten knapp über 1 zu einer großen Zahl; σmax, der Logit-Skalenfaktor und die Zahl der Köpfe bestimmen sie.</translation>
    </message>
    <message>
        <source>movement, λ, ‖g_K‖/‖g_0‖ (log)</source>
        <translation>Bewegung, λ, ‖g_K‖/‖g_0‖ (log)</translation>
    </message>
    <message>
        <source>With the Armijo rule, training runs K ≤ model.prox_steps steps from the input: that forward is not 1-Lipschitz (Attention Lab, &quot;Why Armijo with small K…&quot;). The certificate belongs to the evaluation forward, solved until ‖g_K‖/‖g_0‖ ≤ model.prox_tol (the &quot;at evaluation&quot; lines); the fixed rule with unit-norm tokens is certified at every K. λ mean / min: the accepted step sizes.</source>
        <translation>Mit der Armijo-Regel rechnet das Training K ≤ model.prox_steps Schritte ab der Eingabe: dieser Vorwärtslauf ist nicht 1-Lipschitz (Attention-Labor, „Warum Armijo mit kleinem K …“). Das Zertifikat gehört zum Vorwärtslauf der Auswertung, gelöst bis ‖g_K‖/‖g_0‖ ≤ model.prox_tol (die Linien „bei der Auswertung“); die feste Regel mit Token-Zeilen der Norm 1 ist für jedes K zertifiziert. λ Mittel / Minimum: die akzeptierten Schrittweiten.</translation>
    </message>
    <message>
        <source>AttLip: how far the block moves its input (‖AttLip(X) − X‖/‖X‖; near 0 means nearly the identity), the accepted step sizes λ and the residual ratio ‖g_K‖/‖g_0‖ of the prox solve, in training and at evaluation. With the Armijo rule only the evaluation forward, solved to tolerance, is certified 1-Lipschitz; the training forward&apos;s few steps are not.</source>
        <translation>AttLip: wie weit der Block seine Eingabe bewegt (‖AttLip(X) − X‖/‖X‖; nahe 0 heißt fast die Identität), die akzeptierten Schrittweiten λ und das Residuenverhältnis ‖g_K‖/‖g_0‖ der Prox-Lösung, im Training und bei der Auswertung. Mit der Armijo-Regel ist nur der bis zur Toleranz gelöste Vorwärtslauf der Auswertung 1-Lipschitz zertifiziert, die wenigen Schritte des Trainings nicht.</translation>
    </message>
    <message>
        <source>Mean token RMS of the embedding and of every attention and MLP output over the evaluation steps (the Manifold Muon paper&apos;s Fig. 3).</source>
        <translation>Mittlerer Token-RMS des Embeddings und jeder Attention- und MLP-Ausgabe über die Auswertungsschritte (Abb. 3 der Manifold-Muon-Veröffentlichung).</translation>
    </message>
    <message>
        <source>Lipschitz bound (RMS→RMS)</source>
        <translation>Lipschitz-Schranke (RMS→RMS)</translation>
    </message>
    <message>
        <source>No run yet (F5 starts one)</source>
        <translation>Noch kein Lauf (F5 startet einen)</translation>
    </message>
    <message>
        <source>Waiting for the run&apos;s first logged step</source>
        <translation>Warte auf den ersten protokollierten Schritt des Laufs</translation>
    </message>
    <message>
        <source>None of this run&apos;s logged rows holds this panel&apos;s values</source>
        <translation>Keine geloggte Zeile dieses Laufs enthält die Werte dieser Ansicht</translation>
    </message>
    <message>
        <source>This run&apos;s model has no Lipschitz bound (e.g. a transformer with LayerNorm)</source>
        <translation>Das Modell dieses Laufs hat keine Lipschitz-Schranke (z. B. ein Transformer mit LayerNorm)</translation>
    </message>
    <message>
        <source> (%1: an embedding, not held to σmax)</source>
        <translation> (%1: eine Einbettung, nicht auf σmax gehalten)</translation>
    </message>
    <message>
        <source> (not held to σmax)</source>
        <translation> (nicht auf σmax gehalten)</translation>
    </message>
</context>
<context>
    <name>lwb::app::DeviceQuery</name>
    <message>
        <source>CPU (1 thread)</source>
        <translation>CPU (1 Thread)</translation>
    </message>
    <message>
        <source>CPU (%1 threads)</source>
        <translation>CPU (%1 Threads)</translation>
    </message>
</context>
<context>
    <name>lwb::app::MainWindow</name>
    <message>
        <source>Lipschitz Workbench</source>
        <translation>Lipschitz Workbench</translation>
    </message>
    <message>
        <source>&amp;Open run folder…</source>
        <translation>Lauf&amp;ordner öffnen…</translation>
    </message>
    <message>
        <source>Open a run directory and follow it live (Ctrl+O)</source>
        <translation>Ein Laufverzeichnis öffnen und live verfolgen (Strg+O)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>Runs &amp;folder…</source>
        <translation>Ordner für &amp;Läufe…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>Ü&amp;ber</translation>
    </message>
    <message>
        <source>About Lipschitz Workbench</source>
        <translation>Über Lipschitz Workbench</translation>
    </message>
    <message>
        <source>&lt;b&gt;Lipschitz Workbench&lt;/b&gt; %1&lt;br&gt;Training neural networks with enforced Lipschitz bounds, and seeing why it works.&lt;br&gt;Headless runs: &lt;tt&gt;lipschitz-cli train&lt;/tt&gt;.</source>
        <translation>&lt;b&gt;Lipschitz Workbench&lt;/b&gt; %1&lt;br&gt;Neuronale Netze mit erzwungenen Lipschitz-Schranken trainieren und sehen, warum es funktioniert.&lt;br&gt;Läufe ohne Bildschirm: &lt;tt&gt;lipschitz-cli train&lt;/tt&gt;.</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Seiten</translation>
    </message>
    <message>
        <source>%1 panels</source>
        <translation>Bereiche: %1</translation>
    </message>
    <message>
        <source>Open a run directory</source>
        <translation>Ein Laufverzeichnis öffnen</translation>
    </message>
    <message>
        <source>Cannot open the run</source>
        <translation>Der Lauf kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Folder for new run directories</source>
        <translation>Ordner für neue Laufverzeichnisse</translation>
    </message>
    <message>
        <source>%1: cannot create the folder</source>
        <translation>%1: der Ordner kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>%1: cannot write the PNG</source>
        <translation>%1: das PNG kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Stopping runs before closing…</source>
        <translation>Läufe werden vor dem Schließen angehalten…</translation>
    </message>
    <message>
        <source>Put the shown page&apos;s panels back where they start</source>
        <translation>Die Bereiche der angezeigten Seite an ihren Ausgangsplatz zurücksetzen</translation>
    </message>
    <message>
        <source>&amp;Tour: what am I looking at?</source>
        <translation>&amp;Rundgang: Was sehe ich hier?</translation>
    </message>
    <message>
        <source>Quit while training?</source>
        <translation>Beenden, während trainiert wird?</translation>
    </message>
    <message>
        <source>Stop and quit</source>
        <translation>Anhalten und beenden</translation>
    </message>
    <message>
        <source>&lt;p&gt;Papers cited by number in tooltips and descriptions:&lt;br&gt;&lt;b&gt;000&lt;/b&gt; Training Transformers with Enforced Lipschitz Bounds&lt;br&gt;&lt;b&gt;001&lt;/b&gt; F. L. Cesista, Fast, Numerically Stable, and Auto-Differentiable Spectral Clipping via Newton–Schulz Iteration (2025)&lt;br&gt;&lt;b&gt;002&lt;/b&gt; R. Bir, M. Mok et al., Replacing Normalization in Deep Transformers with Lipschitz and Manifold Geometry (Manifold Muon)&lt;br&gt;&lt;b&gt;004&lt;/b&gt; Globally 1-Lipschitz Attention without Sequence-Length Dependence (AttLip)&lt;/p&gt;</source>
        <translation>&lt;p&gt;Mit Nummer zitierte Veröffentlichungen in Tooltips und Beschreibungen:&lt;br&gt;&lt;b&gt;000&lt;/b&gt; Training Transformers with Enforced Lipschitz Bounds&lt;br&gt;&lt;b&gt;001&lt;/b&gt; F. L. Cesista, Fast, Numerically Stable, and Auto-Differentiable Spectral Clipping via Newton–Schulz Iteration (2025)&lt;br&gt;&lt;b&gt;002&lt;/b&gt; R. Bir, M. Mok et al., Replacing Normalization in Deep Transformers with Lipschitz and Manifold Geometry (Manifold Muon)&lt;br&gt;&lt;b&gt;004&lt;/b&gt; Globally 1-Lipschitz Attention without Sequence-Length Dependence (AttLip)&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Runs still training: %1.</source>
        <translation>Noch trainierende Läufe: %1.</translation>
    </message>
    <message>
        <source>Also running: %1.</source>
        <translation>Außerdem läuft: %1.</translation>
    </message>
    <message>
        <source>Stop them (each run writes a resumable checkpoint) and quit?</source>
        <translation>Anhalten (jeder Lauf schreibt einen fortsetzbaren Checkpoint) und beenden?</translation>
    </message>
    <message>
        <source>Reset la&amp;yout</source>
        <translation>Layout &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>&amp;Undo: %1</source>
        <translation>&amp;Rückgängig: %1</translation>
    </message>
    <message>
        <source>&amp;Redo: %1</source>
        <translation>&amp;Wiederholen: %1</translation>
    </message>
</context>
<context>
    <name>lwb::app::RunFollower</name>
    <message>
        <source>metrics.jsonl ends in a cut line after line %1: what it held is lost (a damaged or partly copied file)</source>
        <translation>metrics.jsonl endet in einer abgeschnittenen Zeile nach Zeile %1: ihr Inhalt ist verloren (eine beschädigte oder teilweise kopierte Datei)</translation>
    </message>
    <message>
        <source>metrics.jsonl: line %1 is not a metrics row and was skipped</source>
        <translation>metrics.jsonl: Zeile %1 ist keine Messzeile und wurde übersprungen</translation>
    </message>
</context>
<context>
    <name>lwb::app::RunForm</name>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Choose a file or folder</source>
        <translation>Eine Datei oder einen Ordner wählen</translation>
    </message>
    <message>
        <source>Text file for the %1 task</source>
        <translation>Textdatei für die Aufgabe %1</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>Datenordner</translation>
    </message>
    <message>
        <source>%1 (not available)</source>
        <translation>%1 (nicht verfügbar)</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not %3</source>
        <translation>%1: „%2“ – erwartet wird %3</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>eine Zahl</translation>
    </message>
    <message>
        <source>a number or auto</source>
        <translation>eine Zahl oder auto</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>eine ganze Zahl</translation>
    </message>
    <message>
        <source>a list of whole numbers</source>
        <translation>eine Liste ganzer Zahlen</translation>
    </message>
    <message>
        <source>device: %1 is not available here (this LibTorch has no CUDA, or no GPU was found)</source>
        <translation>device: %1 ist hier nicht verfügbar (diese LibTorch hat kein CUDA, oder es wurde keine GPU gefunden)</translation>
    </message>
    <message>
        <source>data_path: the %1 task needs a text file</source>
        <translation>data_path: die Aufgabe %1 braucht eine Textdatei</translation>
    </message>
    <message>
        <source>data_path: the %1 task needs a data folder</source>
        <translation>data_path: die Aufgabe %1 braucht einen Datenordner</translation>
    </message>
    <message>
        <source>data_path: &apos;%1&apos; does not exist</source>
        <translation>data_path: „%1“ existiert nicht</translation>
    </message>
</context>
<context>
    <name>lwb::app::RunList</name>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Steps/s</source>
        <translation>Schritte/s</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Stop following</source>
        <translation>Nicht mehr verfolgen</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stoppen</translation>
    </message>
    <message>
        <source>Open run folder</source>
        <translation>Laufordner öffnen</translation>
    </message>
    <message>
        <source>Remove from list</source>
        <translation>Aus der Liste entfernen</translation>
    </message>
    <message>
        <source>Use its settings for a new run</source>
        <translation>Seine Einstellungen für einen neuen Lauf verwenden</translation>
    </message>
</context>
<context>
    <name>lwb::app::RunManager</name>
    <message>
        <source>cannot create a run directory in &apos;%1&apos;</source>
        <translation>in „%1“ kann kein Laufverzeichnis angelegt werden</translation>
    </message>
    <message>
        <source>%1: no such folder</source>
        <translation>%1: Ordner existiert nicht</translation>
    </message>
    <message>
        <source>%1: not a run directory (no config.json or metrics.jsonl)</source>
        <translation>%1: kein Laufverzeichnis (weder config.json noch metrics.jsonl)</translation>
    </message>
    <message>
        <source>Runs folder: %1 (File → Runs folder… chooses another)</source>
        <translation>Laufordner: %1 (Datei → Ordner für Läufe… wählt einen anderen)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; cannot be created</source>
        <translation>„%1“ kann nicht angelegt werden</translation>
    </message>
</context>
<context>
    <name>lwb::app::RunPanel</name>
    <message>
        <source>(engine defaults)</source>
        <translation>(Standardwerte der Engine)</translation>
    </message>
    <message>
        <source>&amp;Start run</source>
        <translation>Lauf &amp;starten</translation>
    </message>
    <message>
        <source>Start training this configuration (F5)</source>
        <translation>Training mit dieser Konfiguration starten (F5)</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source> — %1 free of %2</source>
        <translation> — %1 von %2 frei</translation>
    </message>
    <message>
        <source>Ready: the engine accepts this configuration.</source>
        <translation>Bereit: die Engine akzeptiert diese Konfiguration.</translation>
    </message>
    <message>
        <source>Refused — %1</source>
        <translation>Abgelehnt — %1</translation>
    </message>
    <message>
        <source>Local processes that train this run together (data-parallel ranks). 1 trains inside the app; more start lipschitz-cli train --nproc N, which splits each batch between them, and the app follows the run directory rank 0 writes. Pause is not offered for such runs.</source>
        <translation>Lokale Prozesse, die diesen Lauf gemeinsam trainieren (datenparallele Ränge). 1 trainiert in der App; mehr starten lipschitz-cli train --nproc N, das jeden Batch zwischen ihnen aufteilt, und die App folgt dem Laufordner, den Rang 0 schreibt. Pausieren ist für solche Läufe nicht möglich.</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>Prozesse</translation>
    </message>
    <message>
        <source>Cannot use the run&apos;s settings: %1</source>
        <translation>Die Einstellungen des Laufs sind nicht verwendbar: %1</translation>
    </message>
    <message>
        <source>Cannot use the run&apos;s settings: %1 is not a JSON object</source>
        <translation>Die Einstellungen des Laufs sind nicht verwendbar: %1 ist kein JSON-Objekt</translation>
    </message>
    <message>
        <source>(settings of %1)</source>
        <translation>(Einstellungen von %1)</translation>
    </message>
    <message>
        <source>Preset %1</source>
        <translation>Vorlage %1</translation>
    </message>
    <message>
        <source>(settings from the last session)</source>
        <translation>(Einstellungen der letzten Sitzung)</translation>
    </message>
    <message>
        <source>Settings of %1</source>
        <translation>Einstellungen von %1</translation>
    </message>
</context>
<context>
    <name>lwb::app::RunSession</name>
    <message>
        <source>no longer following (the run itself is not affected)</source>
        <translation>wird nicht mehr verfolgt (der Lauf selbst ist nicht betroffen)</translation>
    </message>
    <message>
        <source>%1 processes need lipschitz-cli, which is neither next to this program nor in PATH (or set LWB_CLI)</source>
        <translation>%1 Prozesse brauchen lipschitz-cli, das weder neben diesem Programm noch im PATH liegt (oder LWB_CLI setzen)</translation>
    </message>
    <message>
        <source>cannot write the run&apos;s config to %1: %2</source>
        <translation>die Konfiguration des Laufs kann nicht nach %1 geschrieben werden: %2</translation>
    </message>
    <message>
        <source>lipschitz-cli exited with status %1</source>
        <translation>lipschitz-cli endete mit Status %1</translation>
    </message>
</context>
<context>
    <name>lwb::app::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Fenster</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>Menü</translation>
    </message>
</context>
<context>
    <name>lwb::app::StatusPanel</name>
    <message>
        <source>No run selected: F5 starts the Train page&apos;s preset, Ctrl+O opens a run folder.</source>
        <translation>Kein Lauf gewählt: F5 startet die Vorlage (Training), Strg+O öffnet einen Laufordner.</translation>
    </message>
    <message>
        <source>step %1 / %2</source>
        <translation>Schritt %1 / %2</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source> · %L1 steps/s · ETA %2</source>
        <translation> · %L1 Schritte/s · Rest %2</translation>
    </message>
    <message>
        <source> · %L1 steps/s · %2</source>
        <translation> · %L1 Schritte/s · %2</translation>
    </message>
    <message>
        <source> · val loss %L1</source>
        <translation> · Val.-Verlust %L1</translation>
    </message>
    <message>
        <source> · val acc %L1</source>
        <translation> · Val.-Genauigkeit %L1</translation>
    </message>
    <message>
        <source>RAM %1</source>
        <translation>RAM %1</translation>
    </message>
    <message>
        <source>GPU %1 free of %2</source>
        <translation>GPU %1 von %2 frei</translation>
    </message>
    <message numerus="yes">
        <source> · %n processes</source>
        <translation>
            <numerusform> · %n Prozess</numerusform>
            <numerusform> · %n Prozesse</numerusform>
        </translation>
    </message>
    <message>
        <source> · attention PGD %L1</source>
        <translation> · Attention-PGD %L1</translation>
    </message>
    <message>
        <source> · mixing %L1 / self %L2</source>
        <translation> · Mischung %L1 / selbst %L2</translation>
    </message>
    <message>
        <source>Attention (measured at the end on the first validation sequence): PGD estimate of the evaluated block against its bound; converged = the prox reached its tolerance, so the bound holds. Mixing / self: how far the converged prox moves the tokens, ÷‖X‖, by what other tokens contribute and by what each token contributes itself — mixing near 0 means the block barely attends.</source>
        <translation>Attention (am Ende auf der ersten Validierungssequenz gemessen): PGD-Schätzung des ausgewerteten Blocks gegen seine Schranke; converged = der Prox hat seine Toleranz erreicht, die Schranke gilt also. Mischung / selbst: wie weit der konvergierte Prox die Tokens bewegt, ÷‖X‖, durch den Beitrag anderer Tokens und durch den Beitrag jedes Tokens selbst — Mischung nahe 0 heißt, der Block achtet kaum auf andere Tokens.</translation>
    </message>
    <message>
        <source>The Lipschitz bound is a product over the layers: it multiplies every layer&apos;s factor: each matrix is held at σmax, so the bound can still grow with depth. The Lipschitz bound panel&apos;s trace shows each layer&apos;s part.</source>
        <translation>Die Lipschitz-Schranke ist ein Produkt über die Schichten: Sie multipliziert die Faktoren aller Schichten; jede Matrix wird bei σmax gehalten, die Schranke kann daher trotzdem mit der Tiefe wachsen. Der Verlauf je Schicht im Bereich „Lipschitz-Schranke“ zeigt den Anteil jeder Schicht.</translation>
    </message>
    <message>
        <source> · Lipschitz bound (RMS→RMS) %L1</source>
        <translation> · Lipschitz-Schranke (RMS→RMS) %L1</translation>
    </message>
    <message>
        <source>no run</source>
        <translation>kein Lauf</translation>
    </message>
</context>
<context>
    <name>lwb::app::TourOverlay</name>
    <message>
        <source>&lt;h2&gt;What am I looking at?&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;Was sehe ich hier?&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Pick a preset on the left (or change any field) and press &lt;b&gt;Start run&lt;/b&gt; (F5). While it trains, each panel shows one part of the story:</source>
        <translation>Wählen Sie links eine Vorlage (oder ändern Sie ein Feld) und drücken Sie &lt;b&gt;Lauf starten&lt;/b&gt; (F5). Während trainiert wird, zeigt jeder Bereich einen Teil der Geschichte:</translation>
    </message>
    <message>
        <source>Panels can be moved, tabbed, floated or closed; View → Reset layout brings the default back. Help → Tour shows this again.</source>
        <translation>Bereiche lassen sich verschieben, als Reiter stapeln, lösen oder schließen; Ansicht → Layout zurücksetzen stellt die Standardanordnung wieder her. Hilfe → Rundgang zeigt dies erneut.</translation>
    </message>
    <message>
        <source>Got it</source>
        <translation>Verstanden</translation>
    </message>
</context>
<context>
    <name>lwb::app::TrainPage</name>
    <message>
        <source>Run setup</source>
        <translation>Laufeinstellungen</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>&amp;Start run</source>
        <translation>Lauf &amp;starten</translation>
    </message>
    <message>
        <source>Start training the run panel&apos;s configuration (F5)</source>
        <translation>Training mit der Konfiguration der Laufeinstellungen starten (F5)</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Pausieren</translation>
    </message>
    <message>
        <source>Pause or resume the selected run (F6)</source>
        <translation>Den ausgewählten Lauf pausieren oder fortsetzen (F6)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>S&amp;toppen</translation>
    </message>
    <message>
        <source>Stop the selected run after its current step (Shift+F5)</source>
        <translation>Den ausgewählten Lauf nach seinem aktuellen Schritt stoppen (Umschalt+F5)</translation>
    </message>
    <message>
        <source>&amp;Remove from list</source>
        <translation>Aus der Liste ent&amp;fernen</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Lauf</translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation>Start nicht möglich: %1</translation>
    </message>
    <message>
        <source>Cannot start the run</source>
        <translation>Der Lauf kann nicht gestartet werden</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <source>S&amp;top following</source>
        <translation>Verfolgen s&amp;toppen</translation>
    </message>
    <message>
        <source>--preset: unknown preset &apos;%1&apos; (known: %2)</source>
        <translation>--preset: unbekannte Vorlage „%1“ (bekannt: %2)</translation>
    </message>
    <message>
        <source>preset %1: %2</source>
        <translation>Vorlage %1: %2</translation>
    </message>
    <message>
        <source>&amp;Train</source>
        <translation>&amp;Training</translation>
    </message>
    <message>
        <source>The run&apos;s configuration: a preset, or every field by hand. The engine checks each value as you type; Start run (F5) trains it on its own thread.</source>
        <translation>Die Konfiguration des Laufs: eine Vorlage oder jedes Feld von Hand. Die Engine prüft jeden Wert bei der Eingabe; Lauf starten (F5) trainiert ihn in einem eigenen Thread.</translation>
    </message>
    <message>
        <source>This session&apos;s runs, each in its own colour, with state, step and speed. The selected run is the one the single-run plots and the status bar follow.</source>
        <translation>Die Läufe dieser Sitzung, jeder in eigener Farbe, mit Zustand, Schritt und Tempo. Dem ausgewählten Lauf folgen die Einzellauf-Diagramme und die Statusleiste.</translation>
    </message>
    <message>
        <source>preset %1: the run could not be started: %2</source>
        <translation>Vorlage %1: Der Lauf konnte nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>Generate text</source>
        <translation>Text erzeugen</translation>
    </message>
    <message>
        <source>&amp;Generate text…</source>
        <translation>Text &amp;erzeugen…</translation>
    </message>
    <message>
        <source>Sample text from the selected character-level run&apos;s newest checkpoint (prompt, length, temperature)</source>
        <translation>Text aus dem neuesten Checkpoint des gewählten Zeichenlaufs erzeugen (Anfangstext, Länge, Temperatur)</translation>
    </message>
    <message>
        <source>Hidden until Run ▸ Generate text… (character runs): text from the run&apos;s newest checkpoint, at a temperature you choose.</source>
        <translation>Verborgen bis Lauf ▸ Text erzeugen… (Zeichenläufe): Text aus dem neuesten Checkpoint des Laufs, bei einer Temperatur Ihrer Wahl.</translation>
    </message>
    <message>
        <source>&amp;Use the selected run&apos;s settings</source>
        <translation>Einstellungen des gewählten Laufs &amp;verwenden</translation>
    </message>
    <message>
        <source>Load the selected run&apos;s config.json into Run setup, to start a new run with the same settings</source>
        <translation>Lädt die config.json des gewählten Laufs in die Laufeinstellungen, um einen neuen Lauf mit denselben Einstellungen zu starten</translation>
    </message>
    <message>
        <source>Remove a training run?</source>
        <translation>Einen trainierenden Lauf entfernen?</translation>
    </message>
    <message>
        <source>%1 is still training. Stop it (it writes a resumable checkpoint) and remove it from the list? Its run folder is kept.</source>
        <translation>%1 trainiert noch. Anhalten (er schreibt einen fortsetzbaren Checkpoint) und aus der Liste entfernen? Sein Laufordner bleibt erhalten.</translation>
    </message>
    <message>
        <source>Stop and remove</source>
        <translation>Anhalten und entfernen</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::AttentionPage</name>
    <message>
        <source>AttLip computes attention as the proximal step of a convex potential, so it is 1-Lipschitz at every sequence length. Pick a preset or a tab.</source>
        <translation>AttLip berechnet Attention als proximalen Schritt eines konvexen Potentials und ist daher bei jeder Sequenzlänge 1-Lipschitz. Wählen Sie eine Vorlage oder einen Reiter.</translation>
    </message>
    <message>
        <source>&amp;Lipschitz vs sequence length</source>
        <translation>Lipschitz vs. Se&amp;quenzlänge</translation>
    </message>
    <message>
        <source>&amp;Inside the prox</source>
        <translation>&amp;Im Inneren des Prox</translation>
    </message>
    <message>
        <source>Why Armijo with small &amp;K is not 1-Lipschitz</source>
        <translation>Warum Armijo mit kleinem &amp;K nicht 1-Lipschitz ist</translation>
    </message>
    <message>
        <source>&amp;Tokens in the plane</source>
        <translation>&amp;Tokens in der Ebene</translation>
    </message>
    <message>
        <source>--attention-preset: unknown Attention Lab preset &apos;%1&apos; (%2)</source>
        <translation>--attention-preset: unbekannte Attention-Lab-Vorlage &apos;%1&apos; (%2)</translation>
    </message>
    <message>
        <source>&amp;Attention Lab</source>
        <translation>&amp;Attention-Labor</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::CapSweepView</name>
    <message>
        <source>R&amp;un sweep</source>
        <translation>&amp;Reihe starten</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>Abbre&amp;chen</translation>
    </message>
    <message>
        <source>σ₁ after the hard cap</source>
        <translation>σ₁ nach der harten Kappung</translation>
    </message>
    <message>
        <source>σ₁ of the input</source>
        <translation>σ₁ der Eingabe</translation>
    </message>
    <message>
        <source>σ₁ of the result</source>
        <translation>σ₁ des Ergebnisses</translation>
    </message>
    <message>
        <source>Largest singular-value error / σmax</source>
        <translation>Größter Singulärwertfehler / σmax</translation>
    </message>
    <message>
        <source>max |σᵢ − min(σᵢ, σmax)| / σmax</source>
        <translation>max |σᵢ − min(σᵢ, σmax)| / σmax</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Präzision</translation>
    </message>
    <message>
        <source>σmax</source>
        <translation>σmax</translation>
    </message>
    <message>
        <source>jordan5 ×</source>
        <translation>jordan5 ×</translation>
    </message>
    <message>
        <source>Cannot run the sweep: %1</source>
        <translation>Die Reihe kann nicht laufen: %1</translation>
    </message>
    <message>
        <source>Sweep cancelled.</source>
        <translation>Reihe abgebrochen.</translation>
    </message>
    <message>
        <source>Running %1 hard caps in %2…</source>
        <translation>%1 harte Kappungen in %2 laufen…</translation>
    </message>
    <message>
        <source>%1 %L2</source>
        <translation>%1 %L2</translation>
    </message>
    <message>
        <source>target 0.02</source>
        <translation>Ziel 0,02</translation>
    </message>
    <message>
        <source>%1×%2 in %3: σ₁ of the result / σmax at σ₁ = %L4 σmax: %5. The exact answer is 1.</source>
        <translation>%1×%2 in %3: σ₁ des Ergebnisses / σmax bei σ₁ = %L4 σmax: %5. Die exakte Antwort ist 1.</translation>
    </message>
    <message>
        <source>Hard cap of matrices whose singular values are log-spaced from σ₁ down to 0.01, in every implementation (jordan5 schedule). The spectral-clipping paper, §4: the nested form must cancel ½W with low-precision products.</source>
        <translation>Harte Kappung von Matrizen, deren Singulärwerte logarithmisch von σ₁ bis hinab zu 0,01 verteilt sind, in jeder Implementierung (jordan5-Schema). Veröffentlichung zum Spectral Clipping, §4: die verschachtelte Form muss ½W mit Produkten geringer Präzision auslöschen.</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::ClipLabPage</name>
    <message>
        <source>Pick a matrix and a method; every control updates the plots while it moves.</source>
        <translation>Wählen Sie eine Matrix und eine Methode; jedes Bedienelement aktualisiert die Plots, während es sich bewegt.</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>Cance&amp;l</source>
        <translation>Abbreche&amp;n</translation>
    </message>
    <message>
        <source>Compute &amp;anyway</source>
        <translation>&amp;Trotzdem berechnen</translation>
    </message>
    <message>
        <source>Constraint</source>
        <translation>Beschränkung</translation>
    </message>
    <message>
        <source>Newton–Schulz steps</source>
        <translation>Newton–Schulz-Schritte</translation>
    </message>
    <message>
        <source>Nested vs ABD</source>
        <translation>Verschachtelt vs. ABD</translation>
    </message>
    <message>
        <source>Equilibrium</source>
        <translation>Gleichgewicht</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>Cannot apply: %1</source>
        <translation>Anwenden nicht möglich: %1</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen…</translation>
    </message>
    <message>
        <source>%1 has no 2-D floating-point tensor.</source>
        <translation>%1 enthält keinen 2-D-Gleitkomma-Tensor.</translation>
    </message>
    <message>
        <source>Open a .safetensors, .npz, .npy or .pt file and pick a layer.</source>
        <translation>Öffnen Sie eine .safetensors-, .npz-, .npy- oder .pt-Datei und wählen Sie eine Schicht.</translation>
    </message>
    <message>
        <source>Building the matrix and its exact SVD…</source>
        <translation>Matrix und ihre exakte SVD werden erstellt…</translation>
    </message>
    <message>
        <source>Release the slider to compute (the last update took %L1 s).</source>
        <translation>Lassen Sie den Schieberegler los, um zu rechnen (die letzte Aktualisierung dauerte %L1 s).</translation>
    </message>
    <message>
        <source>This method takes roughly %L1 s on this matrix here and cannot be interrupted once started; the scalar map above is exact.</source>
        <translation>Diese Methode braucht hier für diese Matrix etwa %L1 s und lässt sich nach dem Start nicht unterbrechen; die Skalarabbildung oben ist exakt.</translation>
    </message>
    <message>
        <source>This takes roughly %L1 s here; Cancel drops the result.</source>
        <translation>Das dauert hier etwa %L1 s; Abbrechen verwirft das Ergebnis.</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Wird berechnet…</translation>
    </message>
    <message>
        <source>Cannot</source>
        <translation>Nicht möglich</translation>
    </message>
    <message>
        <source>Clip &amp;Lab</source>
        <translation>Clip-&amp;Labor</translation>
    </message>
    <message>
        <source>Stiefel retraction</source>
        <translation>Stiefel-Retraktion</translation>
    </message>
    <message>
        <source>--lab-preset: unknown Clip Lab preset &apos;%1&apos; (%2)</source>
        <translation>--lab-preset: unbekannte Clip-Lab-Vorlage „%1“ (%2)</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::ComparePage</name>
    <message>
        <source>&amp;Add run folder…</source>
        <translation>Lauf&amp;ordner hinzufügen…</translation>
    </message>
    <message>
        <source>Add a&amp;ll runs in a folder…</source>
        <translation>Alle Läufe eines Ordners hin&amp;zufügen…</translation>
    </message>
    <message>
        <source>Add this &amp;session&apos;s runs</source>
        <translation>Läufe dieser &amp;Sitzung hinzufügen</translation>
    </message>
    <message>
        <source>Rel&amp;oad</source>
        <translation>&amp;Neu laden</translation>
    </message>
    <message>
        <source>Remove selected</source>
        <translation>Auswahl entfernen</translation>
    </message>
    <message>
        <source>Export table as &amp;CSV…</source>
        <translation>Tabelle als &amp;CSV exportieren…</translation>
    </message>
    <message>
        <source>Save &amp;plots…</source>
        <translation>&amp;Plots speichern…</translation>
    </message>
    <message>
        <source>A folder of run directories</source>
        <translation>Ein Ordner mit Laufverzeichnissen</translation>
    </message>
    <message>
        <source>A run directory</source>
        <translation>Ein Laufverzeichnis</translation>
    </message>
    <message>
        <source>&amp;Compare runs</source>
        <translation>Läufe &amp;vergleichen</translation>
    </message>
    <message>
        <source>Open run &amp;index…</source>
        <translation>Lauf&amp;index öffnen…</translation>
    </message>
    <message>
        <source>A sweep&apos;s index.sqlite (or any run index): thousands of runs in one query</source>
        <translation>index.sqlite eines Sweeps (oder ein beliebiger Laufindex): Tausende Läufe in einer Abfrage</translation>
    </message>
    <message>
        <source>Learning-rate robustness &amp;demo</source>
        <translation>Demo zur Lernraten-&amp;Robustheit</translation>
    </message>
    <message>
        <source>A run index</source>
        <translation>Ein Laufindex</translation>
    </message>
    <message>
        <source>Run index (*.sqlite);;All files (*)</source>
        <translation>Laufindex (*.sqlite);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot start the demo</source>
        <translation>Die Demo kann nicht gestartet werden</translation>
    </message>
    <message>
        <source>no run manager in this window</source>
        <translation>keine Laufverwaltung in diesem Fenster</translation>
    </message>
    <message>
        <source>any column</source>
        <translation>jede Spalte</translation>
    </message>
    <message>
        <source>regular expression, e.g. muon|adamw  or  ^00[0-4]</source>
        <translation>regulärer Ausdruck, z. B. muon|adamw  oder  ^00[0-4]</translation>
    </message>
    <message>
        <source>Filter</source>
        <translation>Filter</translation>
    </message>
    <message>
        <source>Not a regular expression: %1</source>
        <translation>Kein regulärer Ausdruck: %1</translation>
    </message>
    <message>
        <source>The Manifold Muon paper&apos;s Fig. 2: AdamW, Muon and Manifold Muon on the CPU ICL presets at their best learning rate and at 10×, trained now and compared here</source>
        <translation>Abb. 2 der Manifold-Muon-Veröffentlichung: AdamW, Muon und Manifold Muon auf den CPU-ICL-Vorlagen mit ihrer besten Lernrate und mit 10×, jetzt trainiert und hier verglichen</translation>
    </message>
    <message>
        <source>Remove 1 run from the comparison</source>
        <translation>1 Lauf aus dem Vergleich entfernen</translation>
    </message>
    <message>
        <source>Remove %1 runs from the comparison</source>
        <translation>%1 Läufe aus dem Vergleich entfernen</translation>
    </message>
    <message>
        <source>Take the selected runs out of the comparison (Delete in the table; Ctrl+Z brings them back). Their folders are not touched.</source>
        <translation>Die ausgewählten Läufe aus dem Vergleich nehmen (Entf in der Tabelle; Strg+Z holt sie zurück). Ihre Ordner bleiben unberührt.</translation>
    </message>
    <message>
        <source>Re&amp;move selected</source>
        <translation>Auswahl &amp;entfernen</translation>
    </message>
    <message>
        <source>Compare runs: the runs table</source>
        <translation>Läufe vergleichen: die Lauftabelle</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::ComparePlots</name>
    <message>
        <source>Metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>Lipschitz bound vs validation loss (best loss per bound bin ringed)</source>
        <translation>Schranke vs. Validierungsverlust (bester je Intervall umkreist)</translation>
    </message>
    <message>
        <source>final validation loss</source>
        <translation>finaler Validierungsverlust</translation>
    </message>
    <message>
        <source>method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>optimizer / method</source>
        <translation>Optimierer / Methode</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>Group seeds (mean ± std)</source>
        <translation>Seeds gruppieren (Mittel ± Std.)</translation>
    </message>
    <message>
        <source>Frontier per colour</source>
        <translation>Front je Farbe</translation>
    </message>
    <message>
        <source>Colour by</source>
        <translation>Färben nach</translation>
    </message>
    <message numerus="yes">
        <source> (mean of %n seed(s))</source>
        <translation>
            <numerusform> (Mittel über %n Seed)</numerusform>
            <numerusform> (Mittel über %n Seeds)</numerusform>
        </translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Select runs in the table to plot their curves (runs from a run index are read on demand)</source>
        <translation>Läufe in der Tabelle auswählen, um ihre Kurven zu plotten (Läufe aus einem Laufindex werden bei Bedarf gelesen)</translation>
    </message>
    <message numerus="yes">
        <source>%1 (mean of %n seed(s))</source>
        <translation>
            <numerusform>%1 (Mittel über %n Seed)</numerusform>
            <numerusform>%1 (Mittel über %n Seeds)</numerusform>
        </translation>
    </message>
    <message>
        <source>what differs (auto)</source>
        <translation>was sich unterscheidet (auto)</translation>
    </message>
    <message>
        <source>Lipschitz upper bound (RMS→RMS)</source>
        <translation>obere Lipschitz-Schranke (RMS→RMS)</translation>
    </message>
    <message>
        <source>No runs yet (Add run folder…)</source>
        <translation>Noch keine Läufe (Laufordner hinzufügen…)</translation>
    </message>
    <message>
        <source>Colouring by %1: the first setting that differs among the shown runs, looked for in the method, the optimizer, then the constraint&apos;s, optimizer&apos;s, model&apos;s and run&apos;s settings</source>
        <translation>Gefärbt nach %1: die erste Einstellung, in der sich die gezeigten Läufe unterscheiden, gesucht in der Methode, dem Optimierer, dann in den Einstellungen der Beschränkung, des Optimierers, des Modells und des Laufs</translation>
    </message>
    <message>
        <source>validation loss</source>
        <translation>Validierungsverlust</translation>
    </message>
    <message>
        <source>validation loss (paper&apos;s window)</source>
        <translation>Validierungsverlust (Fenster des Papers)</translation>
    </message>
    <message>
        <source>validation loss (full split)</source>
        <translation>Validierungsverlust (ganzer Split)</translation>
    </message>
    <message>
        <source>train loss</source>
        <translation>Trainingsverlust</translation>
    </message>
    <message>
        <source>validation accuracy</source>
        <translation>Validierungsgenauigkeit</translation>
    </message>
    <message>
        <source>train accuracy</source>
        <translation>Trainingsgenauigkeit</translation>
    </message>
    <message>
        <source>Lipschitz bound</source>
        <translation>Lipschitz-Schranke</translation>
    </message>
    <message>
        <source>largest activation entry</source>
        <translation>größter Aktivierungseintrag</translation>
    </message>
    <message>
        <source>largest activation RMS</source>
        <translation>größter Aktivierungs-RMS</translation>
    </message>
    <message>
        <source>steps/s</source>
        <translation>Schritte/s</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <source>soft-cap α</source>
        <translation>α der weichen Kappung</translation>
    </message>
    <message>
        <source>RMS→RMS norm: %1</source>
        <translation>RMS→RMS-Norm: %1</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::CompareTableModel</name>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Val loss</source>
        <translation>Val.-Verlust</translation>
    </message>
    <message>
        <source>Val acc</source>
        <translation>Val.-Genauigkeit</translation>
    </message>
    <message>
        <source>Max act entry</source>
        <translation>Max. Akt.-Eintrag</translation>
    </message>
    <message>
        <source>Max act RMS</source>
        <translation>Max. Akt.-RMS</translation>
    </message>
    <message>
        <source>Steps/s</source>
        <translation>Schritte/s</translation>
    </message>
    <message>
        <source>Val loss (paper window)</source>
        <translation>Val.-Verlust (Fenster des Papers)</translation>
    </message>
    <message>
        <source>Val loss (full split)</source>
        <translation>Val.-Verlust (ganzer Split)</translation>
    </message>
    <message>
        <source>Where the converged prox moves the tokens, ÷‖X‖: %1 made of other tokens (mixing), %2 of each token itself</source>
        <translation>Wohin der konvergierte Prox die Tokens bewegt, ÷‖X‖: %1 aus anderen Tokens (Mischung), %2 aus jedem Token selbst</translation>
    </message>
    <message>
        <source>Certificate of the evaluated attention: converged (the prox reached its tolerance), certified_step (a step rule 1-Lipschitz for every K) or none</source>
        <translation>Zertifikat der ausgewerteten Attention: converged (der Prox hat seine Toleranz erreicht), certified_step (eine Schrittregel, 1-Lipschitz für jedes K) oder none</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <source>Attention PGD</source>
        <translation>Attention-PGD</translation>
    </message>
    <message>
        <source>Attention bound</source>
        <translation>Attention-Schranke</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Lipschitz bound (RMS→RMS)</source>
        <translation>Lipschitz-Schranke (RMS→RMS)</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::ConstraintView</name>
    <message>
        <source>Scalar map f(σ) and the input&apos;s singular values</source>
        <translation>f(σ) und die Singulärwerte der Eingabe</translation>
    </message>
    <message>
        <source>Spectrum before (dashed) and after</source>
        <translation>Spektrum vorher (gestrichelt) und nachher</translation>
    </message>
    <message>
        <source>after the method</source>
        <translation>nach der Methode</translation>
    </message>
    <message>
        <source>Error against the exact SVD result</source>
        <translation>Fehler gegenüber dem exakten SVD-Ergebnis</translation>
    </message>
    <message>
        <source>rank i</source>
        <translation>Rang i</translation>
    </message>
    <message>
        <source>|σᵢ(W′) − σᵢ(U f(Σ) Vᵀ)|</source>
        <translation>|σᵢ(W′) − σᵢ(U f(Σ) Vᵀ)|</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Wird berechnet…</translation>
    </message>
    <message>
        <source>measured σᵢ(W′)</source>
        <translation>gemessene σᵢ(W′)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source> · %1</source>
        <translation> · %1</translation>
    </message>
    <message>
        <source> · %1&lt;br&gt;</source>
        <translation> · %1&lt;br&gt;</translation>
    </message>
    <message>
        <source>α = %1%2&lt;br&gt;</source>
        <translation>α = %1%2&lt;br&gt;</translation>
    </message>
    <message>
        <source> (α* of App. B)</source>
        <translation> (α* aus Anh. B)</translation>
    </message>
    <message>
        <source>σ₁ before: &lt;b&gt;%1&lt;/b&gt;&lt;br&gt;σ₁ after: &lt;b&gt;%2&lt;/b&gt; (exact %3)&lt;br&gt;</source>
        <translation>σ₁ vorher: &lt;b&gt;%1&lt;/b&gt;&lt;br&gt;σ₁ nachher: &lt;b&gt;%2&lt;/b&gt; (exakt %3)&lt;br&gt;</translation>
    </message>
    <message>
        <source>largest |σᵢ − exact|: &lt;b&gt;%1&lt;/b&gt;&lt;br&gt;‖W′ − W*‖&lt;sub&gt;F&lt;/sub&gt; / ‖W*‖&lt;sub&gt;F&lt;/sub&gt;: &lt;b&gt;%2&lt;/b&gt;&lt;br&gt;</source>
        <translation>größtes |σᵢ − exakt|: &lt;b&gt;%1&lt;/b&gt;&lt;br&gt;‖W′ − W*‖&lt;sub&gt;F&lt;/sub&gt; / ‖W*‖&lt;sub&gt;F&lt;/sub&gt;: &lt;b&gt;%2&lt;/b&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>method: &lt;b&gt;%1 ms&lt;/b&gt;</source>
        <translation>Methode: &lt;b&gt;%1 ms&lt;/b&gt;</translation>
    </message>
    <message>
        <source> + msign(W) reused (%1 ms when computed)</source>
        <translation> + msign(W) wiederverwendet (%1 ms bei der Berechnung)</translation>
    </message>
    <message>
        <source> · whole update: &lt;b&gt;%1 ms&lt;/b&gt;</source>
        <translation> · ganzes Update: &lt;b&gt;%1 ms&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::EquilibriumView</name>
    <message>
        <source>σ₁ under repeated updates of norm η</source>
        <translation>σ₁ unter wiederholten Updates der Norm η</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>σ₁(W)</source>
        <translation>σ₁(W)</translation>
    </message>
    <message>
        <source>η (update norm)</source>
        <translation>η (Update-Norm)</translation>
    </message>
    <message>
        <source>λ (decay)</source>
        <translation>λ (Abnahme)</translation>
    </message>
    <message>
        <source>β = σmax</source>
        <translation>β = σmax</translation>
    </message>
    <message>
        <source>Alignment ρ</source>
        <translation>Ausrichtung ρ</translation>
    </message>
    <message>
        <source>Start σ₁</source>
        <translation>Start-σ₁</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>ΔW = η·msign(ρ·msign(W) + (1 − ρ)·msign(G)), G Gaussian. ρ = 1 is the proofs&apos; worst case (updates aligned with the weights), where σ₁ reaches the predicted values exactly.</source>
        <translation>ΔW = η·msign(ρ·msign(W) + (1 − ρ)·msign(G)), G Gaußsch. ρ = 1 ist der ungünstigste Fall der Beweise (Updates an den Gewichten ausgerichtet), in dem σ₁ die vorhergesagten Werte genau erreicht.</translation>
    </message>
    <message>
        <source>Cannot simulate: %1</source>
        <translation>Simulation nicht möglich: %1</translation>
    </message>
    <message>
        <source>Soft cap strength α* = %L1 (App. B, with decay λ).&lt;br&gt;</source>
        <translation>Stärke der weichen Kappung α* = %L1 (Anh. B, mit Abnahme λ).&lt;br&gt;</translation>
    </message>
    <message>
        <source>%1 = %L2</source>
        <translation>%1 = %L2</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1&apos;&gt;■&lt;/span&gt; %2: σ₁ → &lt;b&gt;%L3&lt;/b&gt; after %4 steps; predicted %5 = &lt;b&gt;%L6&lt;/b&gt;&lt;br&gt;</source>
        <translation>&lt;span style=&apos;color:%1&apos;&gt;■&lt;/span&gt; %2: σ₁ → &lt;b&gt;%L3&lt;/b&gt; nach %4 Schritten; vorhergesagt %5 = &lt;b&gt;%L6&lt;/b&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>Updates only partly aligned (ρ &lt; 1): the predictions are upper bounds.</source>
        <translation>Updates nur teilweise ausgerichtet (ρ &lt; 1): die Vorhersagen sind obere Schranken.</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::FiniteKView</name>
    <message>
        <source>&amp;Cancel</source>
        <translation>Abb&amp;rechen</translation>
    </message>
    <message>
        <source>&lt;b&gt;Why:&lt;/b&gt; the step λ that Armijo&apos;s backtracking accepts jumps between β-powers as the input moves, so after a few steps two nearby inputs can land far apart; the fixed safe step makes every step a nonexpansive map, and its ratio stays ≤ 1 for every K.</source>
        <translation>&lt;b&gt;Warum:&lt;/b&gt; Der Schritt λ, den Armijos Backtracking akzeptiert, springt zwischen β-Potenzen, wenn sich die Eingabe bewegt; daher können zwei nahe Eingaben nach wenigen Schritten weit auseinanderliegen. Die feste sichere Schrittweite macht jeden Schritt zu einer nichtexpansiven Abbildung, und ihr Verhältnis bleibt für jedes K ≤ 1.</translation>
    </message>
    <message>
        <source>Measured ‖f(x) − f(y)‖ / ‖x − y‖ on near pairs after K prox steps</source>
        <translation>Gemessenes ‖f(x) − f(y)‖ / ‖x − y‖ auf nahen Paaren nach K Prox-Schritten</translation>
    </message>
    <message>
        <source>inner steps K</source>
        <translation>innere Schritte K</translation>
    </message>
    <message>
        <source>largest ratio over the pairs</source>
        <translation>größtes Verhältnis über die Paare</translation>
    </message>
    <message>
        <source>&amp;N</source>
        <translation>&amp;N</translation>
    </message>
    <message>
        <source>d</source>
        <translation>d</translation>
    </message>
    <message>
        <source>H</source>
        <translation>H</translation>
    </message>
    <message>
        <source>&amp;pairs</source>
        <translation>&amp;Paare</translation>
    </message>
    <message>
        <source>K up to</source>
        <translation>K bis</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>Start nicht möglich: %1</translation>
    </message>
    <message>
        <source>Measuring %1 pairs at K = 1 … %2…</source>
        <translation>Messe %1 Paare bei K = 1 … %2…</translation>
    </message>
    <message>
        <source>Armijo line search</source>
        <translation>Armijo-Liniensuche</translation>
    </message>
    <message>
        <source>fixed safe step</source>
        <translation>feste sichere Schrittweite</translation>
    </message>
    <message>
        <source>ratio = 1</source>
        <translation>Verhältnis = 1</translation>
    </message>
    <message>
        <source>Armijo stays ≤ 1 on these pairs (largest %L1); try more pairs, larger N or another seed.</source>
        <translation>Armijo bleibt auf diesen Paaren ≤ 1 (größtes %L1); versuchen Sie mehr Paare, ein größeres N oder einen anderen Seed.</translation>
    </message>
    <message>
        <source>Armijo exceeds 1 at K = %1 (largest %L2).</source>
        <translation>Armijo übersteigt 1 bei K = %1 (größtes %L2).</translation>
    </message>
    <message>
        <source>Fixed step: largest %L1.</source>
        <translation>Feste Schrittweite: größtes %L1.</translation>
    </message>
    <message>
        <source>α</source>
        <translation>α</translation>
    </message>
    <message>
        <source>These are the relaxed maps x + α(y_K − x) with α = %L1: only the converged prox&apos;s relaxation is certified (bound max(1, α − 1)).</source>
        <translation>Das sind die relaxierten Abbildungen x + α(y_K − x) mit α = %L1: zertifiziert ist nur die Relaxation des konvergierten Prox (Schranke max(1, α − 1)).</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::HistoryPanel</name>
    <message>
        <source>Open a run directory (a folder with checkpoints/step_N.safetensors) to see its checkpoints over steps.</source>
        <translation>Öffnen Sie ein Laufverzeichnis (einen Ordner mit checkpoints/step_N.safetensors), um seine Checkpoints über die Schritte zu sehen.</translation>
    </message>
    <message>
        <source>The metric drawn per layer over the checkpoints&apos; steps</source>
        <translation>Die Kennzahl, die je Schicht über die Schritte der Checkpoints gezeichnet wird</translation>
    </message>
    <message>
        <source>Ca&amp;ncel</source>
        <translation>Abbreche&amp;n</translation>
    </message>
    <message>
        <source>Per layer over steps</source>
        <translation>Je Schicht über die Schritte</translation>
    </message>
    <message>
        <source>Com&amp;pare</source>
        <translation>&amp;Vergleichen</translation>
    </message>
    <message>
        <source>Per layer: Δσ₁ = σ₁(B) − σ₁(A), Δα = α(B) − α(A), and ‖W_B − W_A‖_F / ‖W_A‖_F</source>
        <translation>Je Schicht: Δσ₁ = σ₁(B) − σ₁(A), Δα = α(B) − α(A) und ‖W_B − W_A‖_F / ‖W_A‖_F</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Form</translation>
    </message>
    <message>
        <source>σ₁ (A)</source>
        <translation>σ₁ (A)</translation>
    </message>
    <message>
        <source>σ₁ (B)</source>
        <translation>σ₁ (B)</translation>
    </message>
    <message>
        <source>Δσ₁</source>
        <translation>Δσ₁</translation>
    </message>
    <message>
        <source>Δα</source>
        <translation>Δα</translation>
    </message>
    <message>
        <source>‖ΔW‖/‖W‖</source>
        <translation>‖ΔW‖/‖W‖</translation>
    </message>
    <message>
        <source>‖W_B − W_A‖_F / ‖W_A‖_F: how far the layer moved between the two checkpoints</source>
        <translation>‖W_B − W_A‖_F / ‖W_A‖_F: wie weit sich die Schicht zwischen den beiden Checkpoints bewegt hat</translation>
    </message>
    <message>
        <source>Change of WeightWatcher&apos;s power-law α (a heuristic reading, see the table&apos;s legend)</source>
        <translation>Änderung des Potenzgesetz-α von WeightWatcher (eine heuristische Lesart, siehe die Legende der Tabelle)</translation>
    </message>
    <message>
        <source>Metric:</source>
        <translation>Kennzahl:</translation>
    </message>
    <message>
        <source>Checkpoint A:</source>
        <translation>Checkpoint A:</translation>
    </message>
    <message>
        <source>B:</source>
        <translation>B:</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>Reading the checkpoints of %1…</source>
        <translation>Lese die Checkpoints von %1…</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n checkpoint(s)</source>
        <translation>
            <numerusform>%1: %n Checkpoint</numerusform>
            <numerusform>%1: %n Checkpoints</numerusform>
        </translation>
    </message>
    <message>
        <source>step %1 skipped: %2</source>
        <translation>Schritt %1 übersprungen: %2</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message numerus="yes">
        <source>only in A: %n layer(s)</source>
        <translation>
            <numerusform>nur in A: %n Schicht</numerusform>
            <numerusform>nur in A: %n Schichten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>only in B: %n layer(s)</source>
        <translation>
            <numerusform>nur in B: %n Schicht</numerusform>
            <numerusform>nur in B: %n Schichten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>shape changed: %n layer(s)</source>
        <translation>
            <numerusform>Form geändert: %n Schicht</numerusform>
            <numerusform>Form geändert: %n Schichten</numerusform>
        </translation>
    </message>
    <message>
        <source> — a history needs two: train with checkpoint_every (e.g. 100) and keep_checkpoints (e.g. 20)</source>
        <translation> — ein Verlauf braucht zwei: mit checkpoint_every (z. B. 100) und keep_checkpoints (z. B. 20) trainieren</translation>
    </message>
    <message>
        <source>no names in common as written: matched without “%1” (A) and “%2” (B)</source>
        <translation>keine gemeinsamen Namen wie geschrieben: verglichen ohne „%1“ (A) und „%2“ (B)</translation>
    </message>
    <message numerus="yes">
        <source>NaN/Inf, no spectrum: %n layer(s)</source>
        <translation>
            <numerusform>NaN/Inf, kein Spektrum: %n Schicht</numerusform>
            <numerusform>NaN/Inf, kein Spektrum: %n Schichten</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::InspectorPage</name>
    <message>
        <source>&amp;Open file…</source>
        <translation>Datei ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>Abbre&amp;chen</translation>
    </message>
    <message>
        <source>Filter by name (text or *wildcard*)</source>
        <translation>Nach Namen filtern (Text oder *Platzhalter*)</translation>
    </message>
    <message>
        <source>Matrices only</source>
        <translation>Nur Matrizen</translation>
    </message>
    <message>
        <source>RMS→RMS units</source>
        <translation>RMS→RMS-Einheiten</translation>
    </message>
    <message>
        <source>σmax and the bars in the RMS→RMS norm σ₁·√(d_in/d_out) of a (d_out, d_in) matrix</source>
        <translation>σmax und die Balken in der RMS→RMS-Norm σ₁·√(d_in/d_out) einer (d_out, d_in)-Matrix</translation>
    </message>
    <message>
        <source>σmax</source>
        <translation>σmax</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>L block</source>
        <translation>L Block</translation>
    </message>
    <message>
        <source>L after</source>
        <translation>L danach</translation>
    </message>
    <message>
        <source>activation bound</source>
        <translation>Aktivierungsschranke</translation>
    </message>
    <message>
        <source>Spectrum of the selected matrix</source>
        <translation>Spektrum der ausgewählten Matrix</translation>
    </message>
    <message>
        <source>Loading cancelled.</source>
        <translation>Laden abgebrochen.</translation>
    </message>
    <message>
        <source>Loading cancelled; still showing %1.</source>
        <translation>Laden abgebrochen; %1 wird weiter angezeigt.</translation>
    </message>
    <message>
        <source>after the method (what if)</source>
        <translation>nach der Methode (Was-wäre-wenn)</translation>
    </message>
    <message>
        <source>%1 now</source>
        <translation>%1 jetzt</translation>
    </message>
    <message>
        <source>Open a checkpoint</source>
        <translation>Einen Checkpoint öffnen</translation>
    </message>
    <message>
        <source>Tensor files (*.safetensors *.npz *.npy *.pt *.pth);;All files (*)</source>
        <translation>Tensordateien (*.safetensors *.npz *.npy *.pt *.pth);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen…</translation>
    </message>
    <message>
        <source>Cannot open: %1</source>
        <translation>Öffnen nicht möglich: %1</translation>
    </message>
    <message>
        <source>No file.</source>
        <translation>Keine Datei.</translation>
    </message>
    <message>
        <source>%1 — %2, %3 tensors, %4 matrices</source>
        <translation>%1 — %2, %3 Tensoren, %4 Matrizen</translation>
    </message>
    <message>
        <source>&lt;b&gt;Workbench checkpoint&lt;/b&gt;, step %1: %2&lt;br&gt;</source>
        <translation>&lt;b&gt;Workbench-Checkpoint&lt;/b&gt;, Schritt %1: %2&lt;br&gt;</translation>
    </message>
    <message>
        <source>Lipschitz bound: only for the workbench&apos;s own checkpoints (this is a %1 file).</source>
        <translation>Lipschitz-Schranke: nur für die eigenen Checkpoints der Workbench (dies ist eine %1-Datei).</translation>
    </message>
    <message>
        <source>σᵢ of %1</source>
        <translation>σᵢ von %1</translation>
    </message>
    <message>
        <source>RMS→RMS norm</source>
        <translation>RMS→RMS-Norm</translation>
    </message>
    <message>
        <source>σ₁</source>
        <translation>σ₁</translation>
    </message>
    <message>
        <source>Every matrix&apos;s RMS→RMS norm (shown rows)</source>
        <translation>RMS→RMS-Norm jeder Matrix (angezeigte Zeilen)</translation>
    </message>
    <message>
        <source>Every matrix&apos;s σ₁ (shown rows)</source>
        <translation>σ₁ jeder Matrix (angezeigte Zeilen)</translation>
    </message>
    <message>
        <source>Checkpoint &amp;Inspector</source>
        <translation>Checkpoint-&amp;Inspektor</translation>
    </message>
    <message>
        <source>Lipschitz upper bound (RMS→RMS): &lt;b&gt;%L1&lt;/b&gt;</source>
        <translation>Obere Lipschitz-Schranke (RMS→RMS): &lt;b&gt;%L1&lt;/b&gt;</translation>
    </message>
    <message>
        <source> · App. D, single-head argument: %L1 (not a bound with several heads)</source>
        <translation> · Anh. D, Ein-Kopf-Argument: %L1 (keine Schranke bei mehreren Köpfen)</translation>
    </message>
    <message>
        <source>stored (out, in): PyTorch Linear</source>
        <translation>gespeichert als (aus, ein): PyTorch Linear</translation>
    </message>
    <message>
        <source>stored (in, out): Conv1D (GPT-2), JAX</source>
        <translation>gespeichert als (ein, aus): Conv1D (GPT-2), JAX</translation>
    </message>
    <message>
        <source>How the file stores 2-D weights. The RMS→RMS norm σ₁·√(d_in/d_out) depends on which side is the input; Hugging Face GPT-2&apos;s c_attn, c_fc and c_proj are (in, out) and are detected (c_attn and c_fc wider than tall; nanoGPT&apos;s and CLIP&apos;s Linear layers of the same names are not).</source>
        <translation>Wie die Datei 2-D-Gewichte speichert. Die RMS→RMS-Norm σ₁·√(d_in/d_out) hängt davon ab, welche Seite die Eingabe ist; c_attn, c_fc und c_proj von Hugging Face GPT-2 sind (ein, aus) und werden erkannt (c_attn und c_fc breiter als hoch; gleichnamige Linear-Schichten von nanoGPT und CLIP nicht).</translation>
    </message>
    <message>
        <source>how L after follows</source>
        <translation>wie L danach entsteht</translation>
    </message>
    <message>
        <source>The layer (residual block part, MLP layer or head).</source>
        <translation>Die Schicht (Teil eines Residualblocks, MLP-Schicht oder Kopf).</translation>
    </message>
    <message>
        <source>This layer&apos;s own Lipschitz factor: the attention or MLP block&apos;s constant, or an MLP layer&apos;s weight norm.</source>
        <translation>Der eigene Lipschitz-Faktor dieser Schicht: die Konstante des Attention- oder MLP-Blocks oder die Gewichtsnorm einer MLP-Schicht.</translation>
    </message>
    <message>
        <source>The bound of the network up to and including this layer (RMS→RMS).</source>
        <translation>Die Schranke des Netzes bis einschließlich dieser Schicht (RMS→RMS).</translation>
    </message>
    <message>
        <source>An upper bound on the largest token RMS of the activation after this layer.</source>
        <translation>Eine obere Schranke für das größte Token-RMS der Aktivierung nach dieser Schicht.</translation>
    </message>
    <message>
        <source>Dashed σmax line: σmax %1 (RMS→RMS) = σ₁ %2 for this %3 matrix (÷ √(d_in/d_out) = %4, %5); it moves with the shape.</source>
        <translation>Gestrichelte σmax-Linie: σmax %1 (RMS→RMS) = σ₁ %2 für diese %3-Matrix (÷ √(d_in/d_out) = %4, %5); sie wandert mit der Form.</translation>
    </message>
    <message>
        <source>stored (in, out)</source>
        <translation>gespeichert als (ein, aus)</translation>
    </message>
    <message>
        <source>stored (out, in)</source>
        <translation>gespeichert als (aus, ein)</translation>
    </message>
    <message>
        <source>Dashed σmax line: σmax %1 in σ₁ (spectral norm), the same for every matrix.</source>
        <translation>Gestrichelte σmax-Linie: σmax %1 in σ₁ (Spektralnorm), für jede Matrix gleich.</translation>
    </message>
    <message>
        <source>Open &amp;model folder…</source>
        <translation>&amp;Modellordner öffnen…</translation>
    </message>
    <message>
        <source>No file. Open or drop a .safetensors, .npz, .npy or .pt file, or a model folder.</source>
        <translation>Keine Datei. Öffnen oder ziehen Sie eine .safetensors-, .npz-, .npy- oder .pt-Datei oder einen Modellordner hierher.</translation>
    </message>
    <message>
        <source>E&amp;xport CSV…</source>
        <translation>CSV e&amp;xportieren…</translation>
    </message>
    <message>
        <source>Every tensor and every metric, with the key names of lipschitz-cli inspect</source>
        <translation>Jeder Tensor und jede Kennzahl, mit den Schlüsselnamen von lipschitz-cli inspect</translation>
    </message>
    <message>
        <source>σ₁ or RMS→RMS norm (σmax units)</source>
        <translation>σ₁ oder RMS→RMS-Norm (Einheiten von σmax)</translation>
    </message>
    <message>
        <source>What the bars show for every shown matrix</source>
        <translation>Was die Balken für jede gezeigte Matrix zeigen</translation>
    </message>
    <message>
        <source>Bars:</source>
        <translation>Balken:</translation>
    </message>
    <message>
        <source>Open a Hugging Face model folder</source>
        <translation>Einen Hugging-Face-Modellordner öffnen</translation>
    </message>
    <message>
        <source>Columns</source>
        <translation>Spalten</translation>
    </message>
    <message>
        <source>Choose the table&apos;s columns (WeightWatcher-parity metrics among them)</source>
        <translation>Spalten der Tabelle wählen (darunter die Kennzahlen wie bei WeightWatcher)</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Export the table as CSV</source>
        <translation>Tabelle als CSV exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Every matrix&apos;s %1 (shown rows)</source>
        <translation>%1 jeder Matrix (gezeigte Zeilen)</translation>
    </message>
    <message>
        <source>α = 2 (heuristic)</source>
        <translation>α = 2 (Faustregel)</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>Checkpoint</translation>
    </message>
    <message>
        <source>Run history</source>
        <translation>Laufverlauf</translation>
    </message>
    <message>
        <source>Open a run directory: every metric per layer over its checkpoints, and two checkpoints side by side</source>
        <translation>Ein Laufverzeichnis öffnen: jede Kennzahl je Schicht über seine Checkpoints, und zwei Checkpoints nebeneinander</translation>
    </message>
    <message>
        <source>A Hugging Face model folder: model.safetensors.index.json (or pytorch_model.bin.index.json) and its shards; or a run directory: its checkpoints as a history</source>
        <translation>Ein Hugging-Face-Modellordner: model.safetensors.index.json (oder pytorch_model.bin.index.json) und seine Teildateien; oder ein Laufverzeichnis: seine Checkpoints als Verlauf</translation>
    </message>
    <message>
        <source>How the previous row&apos;s L and this row&apos;s L block give L after: composition multiplies; a residual block mixes, L ← (1 − α)·L + α·L·L_block (the Lipschitz-transformers paper, App. D eq. 14).</source>
        <translation>Wie L der vorigen Zeile und L Block dieser Zeile L danach ergeben: Hintereinanderausführung multipliziert; ein Residualblock mischt, L ← (1 − α)·L + α·L·L_Block (Veröffentlichung zu Lipschitz-Transformern, Anh. D Gl. 14).</translation>
    </message>
    <message>
        <source>Generate text</source>
        <translation>Text erzeugen</translation>
    </message>
    <message>
        <source>Nothing open (Open file… or drop one here)</source>
        <translation>Nichts geöffnet (Datei öffnen… oder hierher ziehen)</translation>
    </message>
    <message>
        <source>α colour: red below 2 (over-fit), amber above 6 (under-trained): WeightWatcher&apos;s heuristic for unconstrained training, not a test (spectrally capped matrices read high by construction). λmax = σ₁² is WeightWatcher&apos;s &quot;spectral norm&quot;; the bounds use σ₁.</source>
        <translation>α-Farbe: rot unter 2 (überangepasst), gelb über 6 (untertrainiert): die Faustregel von WeightWatcher für unbeschränktes Training, kein Test (spektral gekappte Matrizen liegen bauartbedingt hoch). λmax = σ₁² ist WeightWatchers „spektrale Norm“; die Schranken verwenden σ₁.</translation>
    </message>
    <message>
        <source>Left out by the reader:
%1</source>
        <translation>Beim Einlesen ausgelassen:
%1</translation>
    </message>
    <message numerus="yes">
        <source>, entries left out: %n (hover for which)</source>
        <translation>
            <numerusform>, ausgelassene Einträge: %n (Details im Tooltip)</numerusform>
            <numerusform>, ausgelassene Einträge: %n (Details im Tooltip)</numerusform>
        </translation>
    </message>
    <message>
        <source>The run&apos;s newest checkpoint could not be shown: %1</source>
        <translation>Der neueste Checkpoint des Laufs konnte nicht gezeigt werden: %1</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::LecturePresetBar</name>
    <message>
        <source>Lecture presets…</source>
        <translation>Vorlesungsvorlagen…</translation>
    </message>
    <message>
        <source>◀ Prev&amp;ious</source>
        <translation>◀ &amp;Zurück</translation>
    </message>
    <message>
        <source>&amp;Next ▶</source>
        <translation>&amp;Weiter ▶</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::LengthView</name>
    <message>
        <source>Token counts N, increasing, e.g. 16, 32, 64, 128</source>
        <translation>Tokenanzahlen N, aufsteigend, z. B. 16, 32, 64, 128</translation>
    </message>
    <message>
        <source>PGD iterations per restart (step 2.5 r / iterations; SEEDS §D)</source>
        <translation>PGD-Iterationen pro Neustart (Schritt 2.5 r / Iterationen; SEEDS §D)</translation>
    </message>
    <message>
        <source>PGD restarts, run as one batch</source>
        <translation>PGD-Neustarts, als ein Batch ausgeführt</translation>
    </message>
    <message>
        <source>Seed of the weights (the same for every N) and of the inputs x₀ ~ N(0, 1)</source>
        <translation>Seed der Gewichte (für jedes N gleich) und der Eingaben x₀ ~ N(0, 1)</translation>
    </message>
    <message>
        <source>&amp;Paper&apos;s Table 1</source>
        <translation>Tabelle 1 der &amp;Veröffentlichung</translation>
    </message>
    <message>
        <source>R&amp;un</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>Abb&amp;rechen</translation>
    </message>
    <message>
        <source>Lipschitz constant vs sequence length (PGD estimate solid, bound dashed)</source>
        <translation>Lipschitz-Konstante vs. Sequenzlänge (PGD-Schätzung durchgezogen, Schranke gestrichelt)</translation>
    </message>
    <message>
        <source>tokens N</source>
        <translation>Token N</translation>
    </message>
    <message>
        <source>Lipschitz constant (ℓ2)</source>
        <translation>Lipschitz-Konstante (ℓ2)</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>PGD estimate</source>
        <translation>PGD-Schätzung</translation>
    </message>
    <message>
        <source>bound</source>
        <translation>Schranke</translation>
    </message>
    <message>
        <source>prox residual</source>
        <translation>Prox-Residuum</translation>
    </message>
    <message>
        <source>converged</source>
        <translation>konvergiert</translation>
    </message>
    <message>
        <source>d</source>
        <translation>d</translation>
    </message>
    <message>
        <source>H</source>
        <translation>H</translation>
    </message>
    <message>
        <source>&amp;N</source>
        <translation>&amp;N</translation>
    </message>
    <message>
        <source>PGD iterations</source>
        <translation>PGD-Iterationen</translation>
    </message>
    <message>
        <source>restarts</source>
        <translation>Neustarts</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Cancelled; the points computed so far stay.</source>
        <translation>Abgebrochen; die bisher berechneten Punkte bleiben erhalten.</translation>
    </message>
    <message>
        <source>Kinds: tick at least one attention kind</source>
        <translation>Arten: Wählen Sie mindestens eine Attention-Art aus</translation>
    </message>
    <message>
        <source>Computing %1 points (d %2, H %3, PGD %4 × %5)…</source>
        <translation>Berechne %1 Punkte (d %2, H %3, PGD %4 × %5)…</translation>
    </message>
    <message>
        <source>AttLip at N = %1: the prox stopped at residual %L2 above its tolerance, so 1 is not certified there.</source>
        <translation>AttLip bei N = %1: Der Prox-Schritt endete mit Residuum %L2 über seiner Toleranz, daher ist 1 dort nicht zertifiziert.</translation>
    </message>
    <message>
        <source>Done: %1 points.</source>
        <translation>Fertig: %1 Punkte.</translation>
    </message>
    <message>
        <source>%1 · PGD estimate</source>
        <translation>%1 · PGD-Schätzung</translation>
    </message>
    <message>
        <source>%1 · bound</source>
        <translation>%1 · Schranke</translation>
    </message>
    <message>
        <source>paper · AttLip PGD</source>
        <translation>Veröffentlichung · AttLip PGD</translation>
    </message>
    <message>
        <source>paper · ℓ2 PGD</source>
        <translation>Veröffentlichung · ℓ2 PGD</translation>
    </message>
    <message>
        <source>1</source>
        <translation>1</translation>
    </message>
    <message>
        <source>No points yet: pick a lecture preset or press Run.</source>
        <translation>Noch keine Punkte: eine Vorlesungsvorlage wählen oder „Starten“ drücken.</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>Eq. 6 as printed
(not a bound)</source>
        <translation>Gl. 6 wie gedruckt
(keine Schranke)</translation>
    </message>
    <message>
        <source>%1 · bound, Kim ‖W_Q‖² (∝ √N·log N)</source>
        <translation>%1 · Schranke, Kim ‖W_Q‖² (∝ √N·log N)</translation>
    </message>
    <message>
        <source>%1 · Eq. 6 as printed (not a bound)</source>
        <translation>%1 · Gl. 6 wie gedruckt (keine Schranke)</translation>
    </message>
    <message>
        <source>paper · ℓ2 Eq. 6 as printed</source>
        <translation>Veröffentlichung · ℓ2 Gl. 6 wie gedruckt</translation>
    </message>
    <message>
        <source>AttLip α</source>
        <translation>AttLip-α</translation>
    </message>
    <message>
        <source>The AttLip paper&apos;s Table 1 (d 512, H 8, AttLip K = 20) as dotted lines</source>
        <translation>Tabelle 1 der AttLip-Veröffentlichung (d 512, H 8, AttLip K = 20) als gepunktete Linien</translation>
    </message>
    <message>
        <source>The AttLip paper&apos;s Eq. 6 as printed: ‖W_Q‖ once per head. The block carries W_Q twice (A_h = W_Q W_Qᵀ/√d_h), so this number can be below the true Lipschitz constant; the bound column is Kim et al.&apos;s, with ‖W_Q‖².</source>
        <translation>Gl. 6 der AttLip-Veröffentlichung wie gedruckt: ‖W_Q‖ einmal je Kopf. Der Block enthält W_Q zweimal (A_h = W_Q W_Qᵀ/√d_h), daher kann dieser Wert unter der wahren Lipschitz-Konstante liegen; die Spalte „Schranke“ ist die von Kim et al., mit ‖W_Q‖².</translation>
    </message>
    <message>
        <source>AttLip paper, Table 1 at N = %1 (d 512, H 8): PGD %L2, bound 1</source>
        <translation>AttLip-Veröffentlichung, Tabelle 1 bei N = %1 (d 512, H 8): PGD %L2, Schranke 1</translation>
    </message>
    <message>
        <source>AttLip paper, Table 1 at N = %1 (d 512, H 8): PGD %L2, Eq. 6 as printed %L3 (not a bound)</source>
        <translation>AttLip-Veröffentlichung, Tabelle 1 bei N = %1 (d 512, H 8): PGD %L2, Gl. 6 wie gedruckt %L3 (keine Schranke)</translation>
    </message>
    <message>
        <source>The AttLip paper&apos;s Table 1 has no row for standard attention</source>
        <translation>Tabelle 1 der AttLip-Veröffentlichung enthält keine Zeile für Standard-Attention</translation>
    </message>
    <message>
        <source>PGD ascends ‖f(x) − f(y)‖ / ‖x − y‖ over pairs in an ℓ2 ball around x₀ (radius ‖x₀‖_F). A correct AttLip stays ≤ 1 at every N; the ℓ2 bound (Kim et al., ‖W_Q‖² per head) grows as √N·log N while its estimate stays small. The AttLip paper&apos;s Eq. 6 as printed charges ‖W_Q‖ once: it is the paper&apos;s number, not a bound.</source>
        <translation>PGD maximiert ‖f(x) − f(y)‖ / ‖x − y‖ über Paare in einer ℓ2-Kugel um x₀ (Radius ‖x₀‖_F). Ein korrektes AttLip bleibt bei jedem N ≤ 1; die ℓ2-Schranke (Kim et al., ‖W_Q‖² je Kopf) wächst wie √N·log N, während ihre Schätzung klein bleibt. Gl. 6 der AttLip-Veröffentlichung wie gedruckt zählt ‖W_Q‖ nur einmal: Sie ist der Wert der Veröffentlichung, keine Schranke.</translation>
    </message>
    <message>
        <source>Computing the first point…</source>
        <translation>Berechne den ersten Punkt…</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::MatrixSourcePanel</name>
    <message>
        <source>Matrix</source>
        <translation>Matrix</translation>
    </message>
    <message>
        <source>Gaussian</source>
        <translation>Gaußsch</translation>
    </message>
    <message>
        <source>Low rank + noise</source>
        <translation>Niedriger Rang + Rauschen</translation>
    </message>
    <message>
        <source>Heavy-tailed spectrum</source>
        <translation>Spektrum mit schweren Rändern</translation>
    </message>
    <message>
        <source>Prescribed spectrum</source>
        <translation>Vorgegebenes Spektrum</translation>
    </message>
    <message>
        <source>Layer from a checkpoint</source>
        <translation>Schicht aus einem Checkpoint</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>eigene</translation>
    </message>
    <message>
        <source>optional: 10, 5, 2, 1, 0.5 …</source>
        <translation>optional: 10, 5, 2, 1, 0.5 …</translation>
    </message>
    <message>
        <source>Explicit singular values, comma separated (missing ones are zero). Empty: log-spaced from σ₁ to the smallest σ.</source>
        <translation>Explizite Singulärwerte, durch Kommas getrennt, mit Dezimalpunkt (fehlende sind null). Leer: logarithmisch verteilt von σ₁ bis zum kleinsten σ.</translation>
    </message>
    <message>
        <source>New &amp;seed</source>
        <translation>Neuer &amp;Seed</translation>
    </message>
    <message>
        <source>&amp;Open file…</source>
        <translation>Datei ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>no file</source>
        <translation>keine Datei</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>σ₁</source>
        <translation>σ₁</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>Noise</source>
        <translation>Rauschen</translation>
    </message>
    <message>
        <source>Tail exponent</source>
        <translation>Rand-Exponent</translation>
    </message>
    <message>
        <source>Smallest σ</source>
        <translation>Kleinstes σ</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>Werte</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>Open a checkpoint</source>
        <translation>Einen Checkpoint öffnen</translation>
    </message>
    <message>
        <source>Tensor files (*.safetensors *.npz *.npy *.pt *.pth);;All files (*)</source>
        <translation>Tensordateien (*.safetensors *.npz *.npy *.pt *.pth);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::MethodForm</name>
    <message>
        <source>α* from η, λ</source>
        <translation>α* aus η, λ</translation>
    </message>
    <message>
        <source>Use the smallest α that keeps σmax a fixed point of decay + an update of norm η + soft cap (paper App. B)</source>
        <translation>Das kleinste α verwenden, bei dem σmax ein Fixpunkt von Abnahme + Update der Norm η + weicher Kappung bleibt (Paper Anh. B)</translation>
    </message>
    <message>
        <source>×</source>
        <translation>×</translation>
    </message>
    <message>
        <source>Newton–Schulz schedule: steps of the coefficient set, then polishing steps of (15/8, −10/8, 3/8)</source>
        <translation>Newton–Schulz-Schema: Schritte des Koeffizientensatzes, danach Polierschritte mit (15/8, −10/8, 3/8)</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>σmax</source>
        <translation>σmax</translation>
    </message>
    <message>
        <source>σmin</source>
        <translation>σmin</translation>
    </message>
    <message>
        <source>α</source>
        <translation>α</translation>
    </message>
    <message>
        <source>η (lr)</source>
        <translation>η (Lernrate)</translation>
    </message>
    <message>
        <source>λ</source>
        <translation>λ</translation>
    </message>
    <message>
        <source>Implementation</source>
        <translation>Implementierung</translation>
    </message>
    <message>
        <source>Newton–Schulz</source>
        <translation>Newton–Schulz</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Präzision</translation>
    </message>
    <message>
        <source>α* = %1</source>
        <translation>α* = %1</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::NsStepsField</name>
    <message>
        <source>+ polish</source>
        <translation>+ Politur</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::NsStepsView</name>
    <message>
        <source>▶ &amp;Play</source>
        <translation>▶ Abs&amp;pielen</translation>
    </message>
    <message>
        <source>p_k ∘ … ∘ p₁ acting on every σ / ‖W‖_F</source>
        <translation>p_k ∘ … ∘ p₁ angewandt auf jedes σ / ‖W‖_F</translation>
    </message>
    <message>
        <source>σ / ‖W‖_F (input)</source>
        <translation>σ / ‖W‖_F (Eingabe)</translation>
    </message>
    <message>
        <source>after k steps</source>
        <translation>nach k Schritten</translation>
    </message>
    <message>
        <source>Singular values of the iterate X_k</source>
        <translation>Singulärwerte der Iterierten X_k</translation>
    </message>
    <message>
        <source>rank i</source>
        <translation>Rang i</translation>
    </message>
    <message>
        <source>σᵢ(X_k)</source>
        <translation>σᵢ(X_k)</translation>
    </message>
    <message>
        <source>Coefficients</source>
        <translation>Koeffizienten</translation>
    </message>
    <message>
        <source>×</source>
        <translation>×</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Präzision</translation>
    </message>
    <message>
        <source>Step k</source>
        <translation>Schritt k</translation>
    </message>
    <message>
        <source>■ Sto&amp;p</source>
        <translation>■ Sto&amp;pp</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>Ausführen nicht möglich: %1</translation>
    </message>
    <message>
        <source>Running the iteration…</source>
        <translation>Iteration läuft…</translation>
    </message>
    <message>
        <source>p_k ∘ … ∘ p₁ (float64)</source>
        <translation>p_k ∘ … ∘ p₁ (float64)</translation>
    </message>
    <message>
        <source>input singular values</source>
        <translation>Singulärwerte der Eingabe</translation>
    </message>
    <message>
        <source>1</source>
        <translation>1</translation>
    </message>
    <message>
        <source>X_k in %1</source>
        <translation>X_k in %1</translation>
    </message>
    <message>
        <source>scalar polynomials in float64</source>
        <translation>skalare Polynome in float64</translation>
    </message>
    <message>
        <source>Step &lt;b&gt;%1&lt;/b&gt; of %2 · ‖W‖_F = %L3</source>
        <translation>Schritt &lt;b&gt;%1&lt;/b&gt; von %2 · ‖W‖_F = %L3</translation>
    </message>
    <message>
        <source> · this step: p(x) = %L1x %2 %L3x³ + %L4x⁵</source>
        <translation> · dieser Schritt: p(x) = %L1x %2 %L3x³ + %L4x⁵</translation>
    </message>
    <message>
        <source> · σ(X_k) ∈ [%L1, %L2] · largest gap to float64: %L3</source>
        <translation> · σ(X_k) ∈ [%L1; %L2] · größte Abweichung von float64: %L3</translation>
    </message>
    <message>
        <source>%1 × %2 (all steps)</source>
        <translation>%1 × %2 (alle Schritte)</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::PlaneView</name>
    <message>
        <source>d = 2: one head of width 2 or two heads of width 1</source>
        <translation>d = 2: ein Head der Breite 2 oder zwei Heads der Breite 1</translation>
    </message>
    <message>
        <source>‖X − X′‖_F: how far the perturbed copy is from the input</source>
        <translation>‖X − X′‖_F: wie weit die gestörte Kopie von der Eingabe entfernt ist</translation>
    </message>
    <message>
        <source>heads</source>
        <translation>Köpfe</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>&amp;perturbation ‖X − X′‖</source>
        <translation>&amp;Störung ‖X − X′‖</translation>
    </message>
    <message>
        <source>%1 · ratio %L2</source>
        <translation>%1 · Verhältnis %L2</translation>
    </message>
    <message>
        <source>X</source>
        <translation>X</translation>
    </message>
    <message>
        <source>X′</source>
        <translation>X′</translation>
    </message>
    <message>
        <source>f(X)</source>
        <translation>f(X)</translation>
    </message>
    <message>
        <source>f(X′)</source>
        <translation>f(X′)</translation>
    </message>
    <message>
        <source>%1 %L2</source>
        <translation>%1 %L2</translation>
    </message>
    <message>
        <source>Filled: the tokens X and their images f(X); hollow: a copy X′ moved by %L1 in total and its images. Arrows join a token to its image. Ratio ‖f(X) − f(X′)‖ / ‖X − X′‖: %2. A 1-Lipschitz map never exceeds 1.</source>
        <translation>Gefüllt: die Token X und ihre Bilder f(X); hohl: eine um insgesamt %L1 verschobene Kopie X′ und ihre Bilder. Pfeile verbinden ein Token mit seinem Bild. Verhältnis ‖f(X) − f(X′)‖ / ‖X − X′‖: %2. Eine 1-Lipschitz-Abbildung überschreitet niemals 1.</translation>
    </message>
    <message>
        <source>to&amp;kens</source>
        <translation>To&amp;kens</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::ProxView</name>
    <message>
        <source>Entries of X are scale · N(0, 1); Fig. 1&apos;s settings are 1 and 1/√d</source>
        <translation>Einträge von X sind Skalierung · N(0, 1); die Einstellungen von Fig. 1 sind 1 und 1/√d</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>Abb&amp;rechen</translation>
    </message>
    <message>
        <source>Residual ‖g_k‖ = ‖∇φ(y_k)‖ per inner iteration</source>
        <translation>Residuum ‖g_k‖ = ‖∇φ(y_k)‖ pro innerer Iteration</translation>
    </message>
    <message>
        <source>inner iteration k</source>
        <translation>innere Iteration k</translation>
    </message>
    <message>
        <source>‖g_k‖_F</source>
        <translation>‖g_k‖_F</translation>
    </message>
    <message>
        <source>Potential φ(y_k) = f(y_k) + ‖y_k − X‖² / 2η</source>
        <translation>Potential φ(y_k) = f(y_k) + ‖y_k − X‖² / 2η</translation>
    </message>
    <message>
        <source>φ</source>
        <translation>φ</translation>
    </message>
    <message>
        <source>&amp;N</source>
        <translation>&amp;N</translation>
    </message>
    <message>
        <source>d</source>
        <translation>d</translation>
    </message>
    <message>
        <source>H</source>
        <translation>H</translation>
    </message>
    <message>
        <source>input &amp;scale</source>
        <translation>Eingabe&amp;skalierung</translation>
    </message>
    <message>
        <source>steps K</source>
        <translation>Schritte K</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Iteration k</source>
        <translation>Iteration k</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>Start nicht möglich: %1</translation>
    </message>
    <message>
        <source>Running the prox from y₀ = X with both step rules…</source>
        <translation>Prox wird ab y₀ = X mit beiden Schrittweitenregeln ausgeführt…</translation>
    </message>
    <message>
        <source>Iteration &lt;b&gt;k = %1&lt;/b&gt;</source>
        <translation>Iteration &lt;b&gt;k = %1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>, next λ = %L1</source>
        <translation>, nächstes λ = %L1</translation>
    </message>
    <message>
        <source>&lt;br&gt;The fixed step λ = %L1 is safe for this input (λ/(1 − λ/η) ≤ 2/L_f): the K-step map is 1-Lipschitz for every K. Armijo only promises that φ decreases; ‖g‖ need not.</source>
        <translation>&lt;br&gt;Die feste Schrittweite λ = %L1 ist für diese Eingabe sicher (λ/(1 − λ/η) ≤ 2/L_f): Die K-Schritt-Abbildung ist für jedes K 1-Lipschitz. Armijo garantiert nur, dass φ abnimmt; ‖g‖ muss nicht abnehmen.</translation>
    </message>
    <message>
        <source>iteration k</source>
        <translation>Iteration k</translation>
    </message>
    <message>
        <source>AttLip is the prox of η·f: κ = 1 + η·L_f, so a smaller η converges in fewer steps</source>
        <translation>AttLip ist der Prox von η·f: κ = 1 + η·L_f, ein kleineres η konvergiert also in weniger Schritten</translation>
    </message>
    <message>
        <source>η</source>
        <translation>η</translation>
    </message>
    <message>
        <source> · &lt;span style=&apos;color:%1&apos;&gt;%2&lt;/span&gt;: ‖g‖ = %L3, φ = %L4, moved %L5%6</source>
        <translation> · &lt;span style=&apos;color:%1&apos;&gt;%2&lt;/span&gt;: ‖g‖ = %L3, φ = %L4, bewegt %L5%6</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;span style=&apos;color:%1&apos;&gt;%2&lt;/span&gt; after K = %3: ‖AttLip(X) − X‖/‖X‖ = %L4, λ mean %L5, min %L6, ‖g_K‖/‖g_0‖ = %L7</source>
        <translation>&lt;br&gt;&lt;span style=&apos;color:%1&apos;&gt;%2&lt;/span&gt; nach K = %3: ‖AttLip(X) − X‖/‖X‖ = %L4, λ Mittel %L5, Minimum %L6, ‖g_K‖/‖g_0‖ = %L7</translation>
    </message>
    <message>
        <source>Movement α‖y_k − X‖ / ‖X‖: how far the block x + α(y_k − x) has moved its input</source>
        <translation>Bewegung α‖y_k − X‖ / ‖X‖: wie weit der Block x + α(y_k − x) seine Eingabe bewegt hat</translation>
    </message>
    <message>
        <source>α‖y_k − X‖ / ‖X‖</source>
        <translation>α‖y_k − X‖ / ‖X‖</translation>
    </message>
    <message>
        <source>α</source>
        <translation>α</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::RobustnessPage</name>
    <message>
        <source>Computation cancelled; the previous results stay.</source>
        <translation>Berechnung abgebrochen; die vorherigen Ergebnisse bleiben.</translation>
    </message>
    <message>
        <source>&amp;Add run folder…</source>
        <translation>Lauf&amp;ordner hinzufügen…</translation>
    </message>
    <message>
        <source>Add &amp;checkpoint…</source>
        <translation>&amp;Checkpoint hinzufügen…</translation>
    </message>
    <message>
        <source>Add this &amp;session&apos;s runs</source>
        <translation>Läufe dieser &amp;Sitzung hinzufügen</translation>
    </message>
    <message>
        <source>Re&amp;move selected</source>
        <translation>Auswahl &amp;entfernen</translation>
    </message>
    <message>
        <source>l2 radii of the attack in pixel units (pixels in [0, 1]), increasing</source>
        <translation>l2-Radien des Angriffs in Pixeleinheiten (Pixel in [0, 1]), aufsteigend</translation>
    </message>
    <message>
        <source>Examples: the last N of the validation split (held out from the trainer&apos;s validation)</source>
        <translation>Beispiele: die letzten N des Validierungs-Splits (von der Validierung des Trainers ausgenommen)</translation>
    </message>
    <message>
        <source>PGD steps; step size 2.5 ε / steps</source>
        <translation>PGD-Schritte; Schrittweite 2,5 ε / Schritte</translation>
    </message>
    <message>
        <source>C&amp;ompute</source>
        <translation>Be&amp;rechnen</translation>
    </message>
    <message>
        <source>Ca&amp;ncel</source>
        <translation>Abbreche&amp;n</translation>
    </message>
    <message>
        <source>E&amp;xport table as CSV…</source>
        <translation>Tabelle als CSV e&amp;xportieren…</translation>
    </message>
    <message>
        <source>Save &amp;plots…</source>
        <translation>&amp;Plots speichern…</translation>
    </message>
    <message>
        <source>ε</source>
        <translation>ε</translation>
    </message>
    <message>
        <source>Examples</source>
        <translation>Beispiele</translation>
    </message>
    <message>
        <source>PGD steps</source>
        <translation>PGD-Schritte</translation>
    </message>
    <message>
        <source>Runs (newest checkpoint) and checkpoint files to evaluate</source>
        <translation>Zu bewertende Läufe (neuester Checkpoint) und Checkpoint-Dateien</translation>
    </message>
    <message>
        <source>Accuracy vs ε (PGD-ℓ2 solid, certified by the bound dashed)</source>
        <translation>Genauigkeit vs. ε (PGD-ℓ2 durchgezogen, per Schranke zertifiziert gestrichelt)</translation>
    </message>
    <message>
        <source>ε (ℓ2, pixels in [0, 1])</source>
        <translation>ε (ℓ2, Pixel in [0, 1])</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>Mean probability of the correct class under attack</source>
        <translation>Mittlere Wahrscheinlichkeit der richtigen Klasse unter Angriff</translation>
    </message>
    <message>
        <source>mean p(correct)</source>
        <translation>mittleres p(korrekt)</translation>
    </message>
    <message>
        <source>run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>PGD accuracy</source>
        <translation>PGD-Genauigkeit</translation>
    </message>
    <message>
        <source>certified accuracy</source>
        <translation>zertifizierte Genauigkeit</translation>
    </message>
    <message>
        <source>clean accuracy</source>
        <translation>saubere Genauigkeit</translation>
    </message>
    <message>
        <source>bound (RMS→RMS)</source>
        <translation>Schranke (RMS→RMS)</translation>
    </message>
    <message>
        <source>ℓ2 bound</source>
        <translation>ℓ2-Schranke</translation>
    </message>
    <message>
        <source>Attacked example of</source>
        <translation>Angegriffenes Beispiel von</translation>
    </message>
    <message>
        <source>ε: &apos;%1&apos; is not a radius ≥ 0</source>
        <translation>ε: „%1“ ist kein Radius ≥ 0</translation>
    </message>
    <message>
        <source>ε: the radii must increase (%1 after %2)</source>
        <translation>ε: die Radien müssen steigen (%1 nach %2)</translation>
    </message>
    <message>
        <source>ε: give at least one radius, e.g. 0, 0.5, 1</source>
        <translation>ε: mindestens einen Radius angeben, z. B. 0, 0.5, 1</translation>
    </message>
    <message>
        <source>Add a run folder or checkpoint first.</source>
        <translation>Zuerst einen Laufordner oder Checkpoint hinzufügen.</translation>
    </message>
    <message>
        <source>%1, step %2, %3 examples</source>
        <translation>%1, Schritt %2, %3 Beispiele</translation>
    </message>
    <message>
        <source>σ₁ of every matrix: %1 (an upper bound, never an estimate)</source>
        <translation>σ₁ jeder Matrix: %1 (eine obere Schranke, nie eine Schätzung)</translation>
    </message>
    <message>
        <source>%1 · PGD</source>
        <translation>%1 · PGD</translation>
    </message>
    <message>
        <source>%1 · certified</source>
        <translation>%1 · zertifiziert</translation>
    </message>
    <message>
        <source>%1: the examples overlap the trainer&apos;s validation examples</source>
        <translation>%1: die Beispiele überschneiden sich mit den Validierungsbeispielen des Trainers</translation>
    </message>
    <message>
        <source>ε = %L1
predicted %2 (true %3)
p(correct) %L4</source>
        <translation>ε = %L1
vorhergesagt %2 (wahr %3)
p(korrekt) %L4</translation>
    </message>
    <message>
        <source>A run directory</source>
        <translation>Ein Laufverzeichnis</translation>
    </message>
    <message>
        <source>A workbench checkpoint</source>
        <translation>Ein Workbench-Checkpoint</translation>
    </message>
    <message>
        <source>Checkpoints (*.safetensors)</source>
        <translation>Checkpoints (*.safetensors)</translation>
    </message>
    <message>
        <source>&amp;Robustness</source>
        <translation>&amp;Robustheit</translation>
    </message>
    <message>
        <source>No points yet (add runs, then Compute)</source>
        <translation>Noch keine Punkte (Läufe hinzufügen, dann Berechnen)</translation>
    </message>
    <message>
        <source>Accuracy without attack on the examples evaluated here (the last N of the validation split, held out from the trainer&apos;s validation examples), so it can differ from the val acc of the Compare page</source>
        <translation>Genauigkeit ohne Angriff auf den hier ausgewerteten Beispielen (die letzten N des Validierungsteils, getrennt von den Validierungsbeispielen des Trainings); sie kann daher von der Val.-Genauigkeit auf der Seite „Läufe vergleichen“ abweichen</translation>
    </message>
    <message>
        <source>Remove 1 target from the robustness list</source>
        <translation>1 Ziel aus der Robustheitsliste entfernen</translation>
    </message>
    <message>
        <source>Remove %1 targets from the robustness list</source>
        <translation>%1 Ziele aus der Robustheitsliste entfernen</translation>
    </message>
    <message>
        <source>Take the selected runs and checkpoints off the list (Delete in the list; Ctrl+Z brings them back). Results already computed stay until the next Compute.</source>
        <translation>Die ausgewählten Läufe und Checkpoints von der Liste nehmen (Entf in der Liste; Strg+Z holt sie zurück). Schon berechnete Ergebnisse bleiben bis zum nächsten Berechnen.</translation>
    </message>
    <message>
        <source>Remove selected</source>
        <translation>Auswahl entfernen</translation>
    </message>
    <message>
        <source>Robustness: the list of runs and checkpoints</source>
        <translation>Robustheit: die Liste der Läufe und Checkpoints</translation>
    </message>
    <message>
        <source>Add a run folder or checkpoint first</source>
        <translation>Zuerst einen Laufordner oder Checkpoint hinzufügen</translation>
    </message>
    <message>
        <source>Evaluate every run and checkpoint of the list</source>
        <translation>Jeden Lauf und Checkpoint der Liste auswerten</translation>
    </message>
    <message>
        <source>Nothing to plot: no run could be attacked (the reason is above)</source>
        <translation>Nichts darzustellen: kein Lauf konnte angegriffen werden (der Grund steht oben)</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::StepPlayer</name>
    <message>
        <source>◀</source>
        <translation>◀</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>Vorheriger Schritt</translation>
    </message>
    <message>
        <source>▶</source>
        <translation>▶</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>Nächster Schritt</translation>
    </message>
    <message>
        <source>Pla&amp;y</source>
        <translation>Abs&amp;pielen</translation>
    </message>
    <message>
        <source>Sto&amp;p</source>
        <translation>S&amp;topp</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::StiefelView</name>
    <message>
        <source>Singular values after the retraction msign(W − ηA)</source>
        <translation>Singulärwerte nach der Retraktion msign(W − ηA)</translation>
    </message>
    <message>
        <source>rank i</source>
        <translation>Rang i</translation>
    </message>
    <message>
        <source>σᵢ</source>
        <translation>σᵢ</translation>
    </message>
    <message>
        <source>Distance from the manifold |σᵢ − 1|</source>
        <translation>Abstand zur Mannigfaltigkeit |σᵢ − 1|</translation>
    </message>
    <message>
        <source>|σᵢ − 1|</source>
        <translation>|σᵢ − 1|</translation>
    </message>
    <message>
        <source>W</source>
        <translation>W</translation>
    </message>
    <message>
        <source>×</source>
        <translation>×</translation>
    </message>
    <message>
        <source>Step η</source>
        <translation>Schritt η</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Präzision</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>Ausführen nicht möglich: %1</translation>
    </message>
    <message>
        <source>Retracting with every coefficient set…</source>
        <translation>Retraktion mit jedem Koeffizientensatz…</translation>
    </message>
    <message>
        <source>W − ηA (before)</source>
        <translation>W − ηA (vorher)</translation>
    </message>
    <message>
        <source>W on the Stiefel manifold (all σ = 1), A = msign(Gaussian), η = %L1: σ(W − ηA) ∈ [%L2, %L3]. After msign, max |σ − 1|:</source>
        <translation>W auf der Stiefel-Mannigfaltigkeit (alle σ = 1), A = msign(Gauß), η = %L1: σ(W − ηA) ∈ [%L2; %L3]. Nach msign, max |σ − 1|:</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>(on the manifold)</source>
        <translation>(auf der Mannigfaltigkeit)</translation>
    </message>
    <message>
        <source>(off)</source>
        <translation>(abseits)</translation>
    </message>
    <message>
        <source>1</source>
        <translation>1</translation>
    </message>
    <message>
        <source>10⁻⁵</source>
        <translation>10⁻⁵</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; %L2 %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; %L2 %3</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::SweepForm</name>
    <message>
        <source>&amp;Browse…</source>
        <translation>Dur&amp;chsuchen…</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Seeds</source>
        <translation>Seeds</translation>
    </message>
    <message>
        <source>Sweep folder</source>
        <translation>Sweep-Ordner</translation>
    </message>
    <message>
        <source>Run on</source>
        <translation>Ausführen auf</translation>
    </message>
    <message>
        <source>At a time</source>
        <translation>Gleichzeitig</translation>
    </message>
    <message>
        <source>Slurm options</source>
        <translation>Slurm-Optionen</translation>
    </message>
    <message>
        <source>Grid: the cross product of these keys&apos; values, times the seeds</source>
        <translation>Raster: das Kreuzprodukt der Werte dieser Schlüssel, mal die Seeds</translation>
    </message>
    <message>
        <source>the preset&apos;s</source>
        <translation>wie Vorlage</translation>
    </message>
    <message>
        <source>the preset&apos;s seed</source>
        <translation>Seed der Vorlage</translation>
    </message>
    <message>
        <source>Seeds: &quot;0, 1, 2&quot; or &quot;0..4&quot;; each grid point runs once per seed.</source>
        <translation>Seeds: „0, 1, 2“ oder „0..4“; jeder Rasterpunkt läuft einmal pro Seed.</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>dieser Rechner</translation>
    </message>
    <message>
        <source>Slurm (one job array)</source>
        <translation>Slurm (ein Job-Array)</translation>
    </message>
    <message>
        <source>one per core</source>
        <translation>einer pro Kern</translation>
    </message>
    <message>
        <source>Runs at a time. Locally each run gets cores ÷ runs threads; on Slurm this is the array&apos;s %limit.</source>
        <translation>Gleichzeitige Läufe. Lokal erhält jeder Lauf Kerne ÷ Läufe Threads; auf Slurm ist dies das %limit des Arrays.</translation>
    </message>
    <message>
        <source>sbatch options for the job array, separated by spaces</source>
        <translation>sbatch-Optionen für das Job-Array, durch Leerzeichen getrennt</translation>
    </message>
    <message>
        <source>Config key</source>
        <translation>Konfig-Schlüssel</translation>
    </message>
    <message>
        <source>Values (a, b, c  or  from..to xN [log])</source>
        <translation>Werte (a, b, c  oder  von..bis xN [log])</translation>
    </message>
    <message>
        <source>Add &amp;key</source>
        <translation>Schlüssel hin&amp;zufügen</translation>
    </message>
    <message>
        <source>Re&amp;move key</source>
        <translation>Schlüssel &amp;entfernen</translation>
    </message>
    <message>
        <source>Choose a preset</source>
        <translation>Eine Vorlage wählen</translation>
    </message>
    <message>
        <source>Cannot create the sweep folder &apos;%1&apos;</source>
        <translation>Sweep-Ordner „%1“ kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>This sweep&apos;s base config is none of the presets (changed since?); the form keeps %1.</source>
        <translation>Die Basiskonfiguration dieses Sweeps ist keine der Vorlagen (seitdem geändert?); das Formular behält %1.</translation>
    </message>
    <message numerus="yes">
        <source>This sweep is a union of %n grid(s); the form shows the first (%1 has them all).</source>
        <translation>
            <numerusform>Dieser Sweep ist eine Vereinigung von %n Raster; das Formular zeigt das erste (%1 enthält alle).</numerusform>
            <numerusform>Dieser Sweep ist eine Vereinigung von %n Rastern; das Formular zeigt das erste (%1 enthält alle).</numerusform>
        </translation>
    </message>
    <message>
        <source>This sweep&apos;s base %1 is none of the presets; the form keeps %2.</source>
        <translation>Die Basis %1 dieses Sweeps ist keine der Vorlagen; das Formular behält %2.</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::SweepPointsModel</name>
    <message>
        <source>Point</source>
        <translation>Punkt</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Val loss</source>
        <translation>Val.-Verlust</translation>
    </message>
    <message>
        <source>The whole model&apos;s Lipschitz bound at the end of the run, from RMS to RMS norms</source>
        <translation>Die Lipschitz-Schranke des ganzen Modells am Ende des Laufs, von RMS- zu RMS-Normen</translation>
    </message>
    <message>
        <source>Lipschitz bound</source>
        <translation>Lipschitz-Schranke</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::SweepProcess</name>
    <message>
        <source>cannot start %1</source>
        <translation>%1 kann nicht gestartet werden</translation>
    </message>
    <message>
        <source>lipschitz-cli was not found next to the program or in PATH (set LWB_CLI)</source>
        <translation>lipschitz-cli wurde weder neben dem Programm noch im PATH gefunden (LWB_CLI setzen)</translation>
    </message>
    <message>
        <source>lipschitz-cli printed no plan</source>
        <translation>lipschitz-cli hat keinen Plan ausgegeben</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::SweepsPage</name>
    <message>
        <source>Build a grid over a preset, launch it here or on Slurm, and watch every point.</source>
        <translation>Ein Raster über eine Vorlage bauen, hier oder auf Slurm starten und jeden Punkt verfolgen.</translation>
    </message>
    <message>
        <source>&amp;Preview points</source>
        <translation>&amp;Punkte-Vorschau</translation>
    </message>
    <message>
        <source>&amp;Launch</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>S&amp;toppen</translation>
    </message>
    <message>
        <source>E&amp;xport batch script…</source>
        <translation>Batch-Skript e&amp;xportieren…</translation>
    </message>
    <message>
        <source>&amp;Open sweep folder…</source>
        <translation>Sweep-&amp;Ordner öffnen…</translation>
    </message>
    <message>
        <source>A sweep folder</source>
        <translation>Ein Sweep-Ordner</translation>
    </message>
    <message>
        <source>No sweep yet: build one on the left, or open a sweep folder.</source>
        <translation>Noch kein Sweep: links einen erstellen oder einen Sweep-Ordner öffnen.</translation>
    </message>
    <message>
        <source>Spec: %1</source>
        <translation>Spezifikation: %1</translation>
    </message>
    <message>
        <source>time: unknown until a run of this task and model has finished in this folder</source>
        <translation>Zeit: unbekannt, bis ein Lauf dieser Aufgabe und dieses Modells in diesem Ordner abgeschlossen ist</translation>
    </message>
    <message>
        <source>about %1 on this machine (%2 steps/s per run measured here)</source>
        <translation>etwa %1 auf diesem Rechner (%2 Schritte/s pro Lauf, hier gemessen)</translation>
    </message>
    <message>
        <source>about %1 with %2 tasks at a time</source>
        <translation>etwa %1 mit %2 Tasks gleichzeitig</translation>
    </message>
    <message numerus="yes">
        <source>%n point(s) × %1 steps — %2</source>
        <translation>
            <numerusform>%n Punkt × %1 Schritte — %2</numerusform>
            <numerusform>%n Punkte × %1 Schritte — %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>A sweep is running: stop it first</source>
        <translation>Ein Sweep läuft: zuerst stoppen</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Wird gestartet…</translation>
    </message>
    <message>
        <source>Stopping: every run writes status &apos;stopped&apos;…</source>
        <translation>Wird gestoppt: jeder Lauf schreibt den Status „stopped“…</translation>
    </message>
    <message>
        <source>%1 of %2 points done, %3 failed, %4 stopped, %5 pending</source>
        <translation>%1 von %2 Punkten fertig, %3 fehlgeschlagen, %4 gestoppt, %5 ausstehend</translation>
    </message>
    <message>
        <source>%1 of %2 done · %3 running · %4 failed · %5 stopped · ETA %6</source>
        <translation>%1 von %2 fertig · %3 laufen · %4 fehlgeschlagen · %5 gestoppt · Rest %6</translation>
    </message>
    <message>
        <source>%1 points: %2 to run, %3 already done</source>
        <translation>%1 Punkte: %2 auszuführen, %3 bereits fertig</translation>
    </message>
    <message>
        <source>Export the Slurm batch script</source>
        <translation>Das Slurm-Batch-Skript exportieren</translation>
    </message>
    <message>
        <source>Batch script (*.sbatch *.sh)</source>
        <translation>Batch-Skript (*.sbatch *.sh)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>Wrote %1: submit it with sbatch %1</source>
        <translation>%1 geschrieben: mit sbatch %1 einreichen</translation>
    </message>
    <message>
        <source>S&amp;weeps</source>
        <translation>S&amp;weeps</translation>
    </message>
    <message>
        <source>%1: not a sweep folder (it has no points.json; a sweep folder is what a sweep run writes)</source>
        <translation>%1: kein Sweep-Ordner (er hat keine points.json; ein Sweep-Ordner ist, was ein Sweep-Lauf schreibt)</translation>
    </message>
    <message>
        <source>a sweep</source>
        <translation>ein Sweep</translation>
    </message>
    <message>
        <source>(extends the sweep in this folder: its %1 points keep their ids, %2 are new)</source>
        <translation>(erweitert den Sweep in diesem Ordner: seine %1 Punkte behalten ihre IDs, %2 sind neu)</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::TensorTableModel</name>
    <message>
        <source>RMS→RMS operator norm σ₁·√(d_in/d_out) of a (d_out, d_in) matrix</source>
        <translation>RMS→RMS-Operatornorm σ₁·√(d_in/d_out) einer (d_out, d_in)-Matrix</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Form</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <source>σ₁</source>
        <translation>σ₁</translation>
    </message>
    <message>
        <source>RMS→RMS</source>
        <translation>RMS→RMS</translation>
    </message>
    <message>
        <source>Frobenius</source>
        <translation>Frobenius</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>α &lt; 2: WeightWatcher&apos;s heuristic reads this as over-fit (a rule of thumb, not a test)</source>
        <translation>α &lt; 2: WeightWatchers Faustregel liest das als überangepasst (eine Daumenregel, kein Test)</translation>
    </message>
    <message>
        <source>σ₁, the largest singular value: the spectral norm the workbench&apos;s bounds use (WeightWatcher&apos;s &quot;spectral norm&quot; is λmax = σ₁²)</source>
        <translation>σ₁, der größte Singulärwert: die Spektralnorm, die die Schranken der Workbench verwenden (WeightWatchers „Spektralnorm“ ist λmax = σ₁²)</translation>
    </message>
    <message>
        <source>α &gt; 6: WeightWatcher&apos;s heuristic reads this as under-trained (a rule of thumb, not a test). A spectral cap piles the largest singular values up at σmax and so thins the tail α is fitted to: capped matrices read high by construction</source>
        <translation>α &gt; 6: die Faustregel von WeightWatcher liest das als untertrainiert (eine Faustregel, kein Test). Eine spektrale Kappung häuft die größten Singulärwerte bei σmax an und dünnt so den Ausläufer aus, an den α angepasst wird: gekappte Matrizen liegen bauartbedingt hoch</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::TextSamplePanel</name>
    <message>
        <source>Generate text (character-level runs)</source>
        <translation>Text erzeugen (zeichenbasierte Läufe)</translation>
    </message>
    <message>
        <source>Prompt (empty: a new line)</source>
        <translation>Anfangstext (leer: ein Zeilenumbruch)</translation>
    </message>
    <message>
        <source> characters</source>
        <translation> Zeichen</translation>
    </message>
    <message>
        <source>Softmax temperature: low values repeat the likeliest text, 1.0 samples the model as trained; 0 is greedy</source>
        <translation>Softmax-Temperatur: niedrige Werte wiederholen den wahrscheinlichsten Text, 1.0 zieht aus dem Modell wie trainiert; 0 wählt immer das wahrscheinlichste Zeichen</translation>
    </message>
    <message>
        <source>&amp;Generate</source>
        <translation>&amp;Erzeugen</translation>
    </message>
    <message>
        <source>C&amp;ancel</source>
        <translation>Abb&amp;rechen</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>Länge</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Temperature &quot;%1&quot; is not a number ≥ 0 (presets 0.2, 0.5, 1.0; 0 is greedy).</source>
        <translation>Temperatur „%1“ ist keine Zahl ≥ 0 (Vorgaben 0.2, 0.5, 1.0; 0 wählt immer das wahrscheinlichste Zeichen).</translation>
    </message>
    <message>
        <source>Generating…</source>
        <translation>Erzeuge…</translation>
    </message>
</context>
<context>
    <name>lwb::app::pages::WhatIfPanel</name>
    <message>
        <source>What if</source>
        <translation>Was wäre wenn</translation>
    </message>
    <message>
        <source>Preview the method on the selected tensor</source>
        <translation>Vorschau der Methode auf dem ausgewählten Tensor</translation>
    </message>
    <message>
        <source>Open in Clip &amp;Lab</source>
        <translation>&amp;Im Clip-Labor öffnen</translation>
    </message>
    <message>
        <source>Select a matrix in the table.</source>
        <translation>Wählen Sie eine Matrix in der Tabelle.</translation>
    </message>
    <message>
        <source>Cannot preview: %1</source>
        <translation>Vorschau nicht möglich: %1</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Wird berechnet…</translation>
    </message>
    <message>
        <source>Tick the box to preview %1.</source>
        <translation>Kreuzen Sie das Feld an, um %1 in der Vorschau zu sehen.</translation>
    </message>
    <message>
        <source>%1: σ₁ %L2 → %L3 (exact %L4), largest σ error %L5, %L6 ms</source>
        <translation>%1: σ₁ %L2 → %L3 (exakt %L4), größter σ-Fehler %L5, %L6 ms</translation>
    </message>
    <message>
        <source>, α = %L1</source>
        <translation>, α = %L1</translation>
    </message>
    <message>
        <source>. Thresholds are raw σ.</source>
        <translation>. Schwellen sind rohe σ.</translation>
    </message>
</context>
<context>
    <name>lwb::widgets::ActivationPlot</name>
    <message>
        <source>block</source>
        <translation>Block</translation>
    </message>
    <message>
        <source>activation magnitude</source>
        <translation>Aktivierungsbetrag</translation>
    </message>
    <message>
        <source> · max |entry|</source>
        <translation> · max |Eintrag|</translation>
    </message>
    <message>
        <source> · max RMS</source>
        <translation> · max RMS</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>off scale: %1</source>
        <translation>außer Skala: %1</translation>
    </message>
</context>
<context>
    <name>lwb::widgets::BarChartPlot</name>
    <message>
        <source>value</source>
        <translation>Wert</translation>
    </message>
</context>
<context>
    <name>lwb::widgets::FrontierScatterPlot</name>
    <message>
        <source>Lipschitz bound</source>
        <translation>Lipschitz-Schranke</translation>
    </message>
    <message>
        <source>validation loss</source>
        <translation>Validierungsverlust</translation>
    </message>
    <message>
        <source>frontier (best per bin)</source>
        <translation>Front (beste je Bin)</translation>
    </message>
</context>
<context>
    <name>lwb::widgets::LipschitzBoundPlot</name>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Lipschitz bound</source>
        <translation>Schranke</translation>
    </message>
    <message>
        <source>factor (bars)</source>
        <translation>Faktor (Balken)</translation>
    </message>
    <message>
        <source>bound so far (line)</source>
        <translation>bisherige Schranke (Linie)</translation>
    </message>
    <message>
        <source> · layer factor</source>
        <translation> · Schichtfaktor</translation>
    </message>
    <message>
        <source> · bound after layer</source>
        <translation> · Schranke nach der Schicht</translation>
    </message>
    <message>
        <source> · App. D, single-head argument</source>
        <translation> · Anh. D, Argument für einen Kopf</translation>
    </message>
    <message>
        <source>L = %1 × %2 = %3 (composition: factors multiply)</source>
        <translation>L = %1 × %2 = %3 (Hintereinanderausführung: Faktoren multiplizieren sich)</translation>
    </message>
    <message>
        <source>L = (1 − α)·%1 + α·%1·%2 = %3 with α = %4 (residual block, App. D eq. 14)</source>
        <translation>L = (1 − α)·%1 + α·%1·%2 = %3 mit α = %4 (Residualblock, Anh. D Gl. 14)</translation>
    </message>
    <message>
        <source>L: %1 → %2 (factor %3)</source>
        <translation>L: %1 → %2 (Faktor %3)</translation>
    </message>
    <message>
        <source>per-layer trace at step %1</source>
        <translation>Faktoren je Schicht bei Schritt %1</translation>
    </message>
    <message>
        <source>bound</source>
        <translation>Schranke</translation>
    </message>
    <message>
        <source>factor</source>
        <translation>Faktor</translation>
    </message>
    <message>
        <source>so far</source>
        <translation>bisher</translation>
    </message>
</context>
<context>
    <name>lwb::widgets::LossAccuracyPlot</name>
    <message>
        <source>train loss</source>
        <translation>Trainingsverlust</translation>
    </message>
    <message>
        <source>val loss</source>
        <translation>Val.-Verlust</translation>
    </message>
    <message>
        <source>train acc</source>
        <translation>Trainingsgenauigkeit</translation>
    </message>
    <message>
        <source>val acc</source>
        <translation>Val.-Genauigkeit</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>train</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>Validierung</translation>
    </message>
    <message>
        <source>accuracy: lighter, right axis</source>
        <translation>Genauigkeit: rechte Achse</translation>
    </message>
    <message>
        <source>EMA smoothing weight (TensorBoard style, bias-corrected)</source>
        <translation>EMA-Glättungsgewicht (wie TensorBoard, biaskorrigiert)</translation>
    </message>
    <message>
        <source>Smoothing %L1</source>
        <translation>Glättung %L1</translation>
    </message>
    <message>
        <source> (raw)</source>
        <translation> (roh)</translation>
    </message>
</context>
<context>
    <name>lwb::widgets::MetricPlot</name>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
</context>
<context>
    <name>lwb::widgets::PlotView</name>
    <message>
        <source>Log y</source>
        <translation>Log y</translation>
    </message>
    <message>
        <source>Log x</source>
        <translation>Log x</translation>
    </message>
    <message>
        <source>Cannot write %1: the folder does not exist.</source>
        <translation>%1 kann nicht geschrieben werden: der Ordner existiert nicht.</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>%1 kann nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Reset view</source>
        <translation>Ansicht zurücksetzen</translation>
    </message>
    <message>
        <source>Save as PNG…</source>
        <translation>Als PNG speichern…</translation>
    </message>
    <message>
        <source>Save as PDF…</source>
        <translation>Als PDF speichern…</translation>
    </message>
    <message>
        <source>Export data as CSV…</source>
        <translation>Daten als CSV exportieren…</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG-Bild (*.png)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF-Dokument (*.pdf)</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV-Tabelle (*.csv)</translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation>Plot exportieren</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>lwb::widgets::ScalarMapPlot</name>
    <message>
        <source>σ</source>
        <translation>σ</translation>
    </message>
    <message>
        <source>f(σ)</source>
        <translation>f(σ)</translation>
    </message>
    <message>
        <source>y = x</source>
        <translation>y = x</translation>
    </message>
    <message>
        <source>σᵢ of the matrix</source>
        <translation>σᵢ der Matrix</translation>
    </message>
    <message>
        <source>σmax</source>
        <translation>σmax</translation>
    </message>
    <message>
        <source>σmin</source>
        <translation>σmin</translation>
    </message>
    <message>
        <source>σᵢ of the matrix (RMS→RMS)</source>
        <translation>σᵢ der Matrix (RMS→RMS)</translation>
    </message>
    <message>
        <source>σ (RMS→RMS)</source>
        <translation>σ (RMS→RMS)</translation>
    </message>
</context>
<context>
    <name>lwb::widgets::SpectrumPlot</name>
    <message>
        <source>Layer whose spectrum is shown</source>
        <translation>Schicht, deren Spektrum gezeigt wird</translation>
    </message>
    <message>
        <source>step –</source>
        <translation>Schritt –</translation>
    </message>
    <message>
        <source>Recorded snapshot steps</source>
        <translation>Aufgezeichnete Schnappschuss-Schritte</translation>
    </message>
    <message>
        <source>Overlay the spectrum measured just before the constraint step</source>
        <translation>Das direkt vor dem Beschränkungsschritt gemessene Spektrum überlagern</translation>
    </message>
    <message>
        <source>Ranked</source>
        <translation>Nach Rang</translation>
    </message>
    <message>
        <source>Density</source>
        <translation>Dichte</translation>
    </message>
    <message>
        <source> (before)</source>
        <translation> (vorher)</translation>
    </message>
    <message>
        <source>singular value σ</source>
        <translation>Singulärwert σ</translation>
    </message>
    <message>
        <source>density</source>
        <translation>Dichte</translation>
    </message>
    <message>
        <source>rank i</source>
        <translation>Rang i</translation>
    </message>
    <message>
        <source>σᵢ</source>
        <translation>σᵢ</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>σmax</source>
        <translation>σmax</translation>
    </message>
    <message>
        <source>σmin</source>
        <translation>σmin</translation>
    </message>
    <message>
        <source>after constraint</source>
        <translation>nach der Beschränkung</translation>
    </message>
    <message>
        <source>before constraint</source>
        <translation>vor der Beschränkung</translation>
    </message>
    <message>
        <source>singular value σ (RMS→RMS)</source>
        <translation>Singulärwert σ (RMS→RMS)</translation>
    </message>
    <message>
        <source>σᵢ (RMS→RMS)</source>
        <translation>σᵢ (RMS→RMS)</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
</context>
<context>
    <name>lwb::widgets::WeightNormPlot</name>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>‖W‖ RMS→RMS</source>
        <translation>‖W‖ RMS→RMS</translation>
    </message>
    <message>
        <source>σmax target</source>
        <translation>σmax-Ziel</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <source>σmax</source>
        <translation>σmax</translation>
    </message>
    <message>
        <source>σmin</source>
        <translation>σmin</translation>
    </message>
    <message>
        <source>%1 layers: hover a line for its name</source>
        <translation>%1 Schichten: Maus über eine Linie zeigt ihren Namen</translation>
    </message>
    <message>
        <source>colour: run · hover a line for its layer</source>
        <translation>Farbe: Lauf · Maus über eine Linie zeigt ihre Schicht</translation>
    </message>
</context>
</TS>
