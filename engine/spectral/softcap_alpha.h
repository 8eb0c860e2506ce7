// Scalar theory of the constraint methods: the minimal soft-cap strength alpha* (000 App. B)
// and the equilibrium of spectrally clipped weight decay (000 App. C.2, 001 §3.4).
// Plain double arithmetic, no tensors: the GUI's curve plots and the CLI use it too.
#pragma once

namespace lwb::spectral {

// p2(p1(sigma)) with p1(x) = x - alpha x^3, p2(x) = x + alpha x^3.
double softCapPolynomial(double sigma, double alpha);

// k = sigmaMax (1 - lambda lr) + updateNorm: the largest a singular value at sigmaMax can
// become after weight decay and an update of spectral norm <= updateNorm (Theorem B.1).
double softCapWorstCaseK(double sigmaMax, double lr, double weightDecay, double updateNorm);

// Smallest alpha >= 0 with p2(p1(k)) = sigmaMax, i.e. the smallest non-negative real root of
// -k^9 a^4 + 3 k^7 a^3 - 3 k^5 a^2 + k - sigmaMax = 0; 0 when k <= sigmaMax.
// updateNorm < 0 means "equal to lr" (Muon: ||Delta W|| <= lr). Thresholds in whatever norm
// the update bound is stated in (RMS->RMS for Muon's scaled updates).
double softCapAlphaStar(double sigmaMax, double lr, double weightDecay = 0.0,
                        double updateNorm = -1.0);

// The largest value p2(p1(sigma)) takes for sigma in [0, k]. App. B's alpha* makes p2(p1(k))
// = sigmaMax assuming the map rises on [0, k]; it rises only up to its turnover 1/sqrt(3 alpha)
// (p2 is increasing, p1' = 1 - 3 alpha sigma^2). With alpha* that turnover lies inside [0, k]
// once k > 1.3065 sigmaMax (t = alpha k^2 > 1/3, f(1/3) = 0.7654), i.e. for Muon once
// lr > 0.3065 sigmaMax: singular values between the turnover and k then leave the cap above
// sigmaMax, at up to this peak, and the bound built from sigmaMax is not held.
double softCapPeak(double alpha, double k);

// The quartic's value at alpha (for tests and the CLI's residual report).
double softCapQuartic(double alpha, double k, double sigmaMax);

enum class DecayOrder { UpdateThenProject, ProjectThenUpdate };

// sigma_eq = beta + (1 - lambda) / lambda * lr  (update first, then project)
//          = beta + lr / lambda                 (project first, then update)
double clippedWeightDecayEquilibrium(double beta, double lambda, double lr, DecayOrder order);

}  // namespace lwb::spectral
